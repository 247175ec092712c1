// Names shared by the heartbeat reader (pure) and its stored state, so the reader imports no storage
// (docs/monitors.md, "Heartbeat").

/** The thirdparty_id of a heartbeat's missed-beat alert: one per integration, resolved by the next ping. */
export const HEARTBEAT_ALERT_KEY = 'heartbeat';
/** The method of the request a missed beat is applied as: no client can send it (the routes take GET and POST). */
export const MISSED_METHOD = 'HEARTBEAT_MISSED';
