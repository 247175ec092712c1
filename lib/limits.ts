// Every limit Hark enforces, in one table: its name, value, unit and the reason it exists. docs/limits.md lists
// them (a test keeps the page and this table equal). Code that enforces a limit imports its value from here, so
// changing a limit is one edit.

/** A limit; `applies` says where, in the API's words. */
export interface Limit { readonly value: number; readonly unit: string; readonly applies: string; readonly reason: string }

/** Waits before retries 1..7 of a delivery (jitter ±10 % added), as Standard Webhooks senders use. */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

export const LIMITS = {
  // Storage
  COLLECTION_LIMIT: {
    value: 5_000,
    unit: 'objects per type per account',
    applies: 'teams, schedules, events, policies, routers, rules, windows, integrations, account users, comments…',
    reason: 'Configuration lists read the whole collection and filter in memory; the cap keeps every list one bounded read.',
  },
  TRANSACTION_ITEMS: {
    value: 100,
    unit: 'items',
    applies: 'one write transaction',
    reason: 'DynamoDB TransactWriteItems accepts at most 100 items; larger changes are split or refused.',
  },
  TINY_ID_BLOCK_EXTRA: { value: 16, unit: 'tiny ids', applies: 'the ids a process takes beyond what one create needs, with one counter update, once it took at least 4 of the sequence in the last lease (a storm); handed out from memory until the lease ends', reason: 'A storm pays one counter update per block instead of one per create; the bound is the most ids a lease ending can skip.' },
  TINY_ID_BLOCK_LEASE_MS: { value: 1000, unit: 'milliseconds', applies: 'how long a process hands out a block of tiny ids from memory; what is left then is skipped', reason: 'Blocks exist for storms only: a second keeps the ids of a storm’s creates in nearly their creation order across processes, and a quiet process back to one counter update per create.' },
  ALERT_LOG_ITEM_BYTES: { value: 64 * 1024, unit: 'bytes (the entries’ JSON, UTF-8)', applies: 'the entries one alert log item holds: the entries one transaction writes for an alert share an item up to this size, the rest start another (an entry larger alone is an item of its own)', reason: 'A DynamoDB item holds at most 400 KB; a sixth of it keeps every log item far below that and still holds some 250 entries of about 250 bytes: a whole step of nearly every alert in one item.' },
  OUTBOX_SHARDS: { value: 16, unit: 'partitions per account', applies: 'outbox messages (and their prefix-id aliases) written since sharding: each lives in partition `A#<account>#OUTBOX#<shard>`, the shard a stable hash of its id (of its prefix id for the alias); lists read every shard and the account partition', reason: 'A page writes its outbox message and alias (2 + 2 write units, transactional) and updates the message at delivery (2): in one partition, on the newest end of ULID sort keys, that held one account near 125 creates/s paging one person on two channels. Spread over 16 partitions: 16 × 1,000 / 12 ≈ 1,333 creates/s (≈ 666 with each alert resolved and its notices sent), above the 500/s goal; a list then costs one Query per shard. It only grows: lowering it would hide the dropped shards.' },
  COUNTER_SHARDS: {
    value: 8,
    unit: 'shard partitions per counter',
    applies: 'the counts every alert create or webhook request changes: all alerts, per status and all request logs as attributes of the account’s counter group item, per team and per integration in items of their own; a change writes one shard at random; a count is read as the sum of its shard items, its unsharded item and, when grouped, the group items',
    reason: 'A transactional write costs 2 WCU per KB, so one item takes at most 500 creates/s (1,000 WCU/s per partition); 8 shards, each a partition of its own, take 8 × 1,000 / 6 ≈ 1,333 webhook creates/s (a create’s counts go to one shard as three items under 1 KB — the group, the team’s, the integration’s — 6 WCU), and a count is one BatchGetItem of 17 keys (9 for a team or integration).',
  },
  // Requests and responses
  DEFAULT_PAGE_SIZE: { value: 10, unit: 'objects', applies: 'list `limit` when absent', reason: 'The interface’s default page.' },
  MAX_PAGE_SIZE: { value: 100, unit: 'objects', applies: 'list `limit`', reason: 'The interface allows 1 to 100; outside that range is a 422.' },
  MAX_LIST_OFFSET: {
    value: 10_000,
    unit: 'objects',
    applies: 'list `offset`, and `(page − 1) × limit` (beyond: 422 naming the parameter)',
    reason: 'A page of alerts or logs reads every object it skips; twice the largest configuration collection, and older alerts are reached by filtering on created_at.',
  },
  DEFAULT_MAX_BODY_BYTES: {
    value: 256 * 1024,
    unit: 'bytes',
    applies: 'request bodies (HARK_MAX_BODY_BYTES, `hark:maxBodyBytes`)',
    reason: 'The webhook’s body is kept in one DynamoDB item (400 KB at most) with its headers.',
  },
  MAX_BODY_BYTES_SETTING: {
    value: 256 * 1024,
    unit: 'bytes',
    applies: 'the largest `hark:maxBodyBytes` a deployment may set',
    reason: 'Same item-size bound as the default: a larger body could not be logged.',
  },
  MAX_MESSAGE_BYTES: {
    value: 1024 * 1024,
    unit: 'bytes',
    applies: 'a webhook request with its headers and query, as queued',
    reason: 'The ingest queue’s largest message; SQS would refuse a larger one and the sender would retry forever.',
  },
  MAX_PATH_ID_LENGTH: {
    value: 64,
    unit: 'characters',
    applies: 'every `{id}` in a path (and the integration id of /integration/{id})',
    reason: 'Longer than every id form (ULID 26, prefix id 19, tiny id 16); a longer one is a 404 without reading the table.',
  },
  MAX_LAMBDA_RESPONSE_BYTES: {
    value: 6_291_456,
    unit: 'bytes',
    applies: 'one response',
    reason: 'Lambda’s response payload limit; window_events compresses or pages past it instead of failing.',
  },
  MAX_WARNED_FIELDS: {
    value: 10,
    unit: 'fields',
    applies: 'unknown body fields one answer’s `Warning` header names (then one `and N more unknown fields`)',
    reason: 'Keeps the header far below what clients accept (16 KiB of headers in Node) however many fields a body holds.',
  },
  WARNED_FIELD_NAME_LENGTH: {
    value: 64,
    unit: 'characters',
    applies: 'one field name in a `Warning` header (a longer one is cut, with `...`)',
    reason: 'Enough to recognise a misspelling; bounds the header with MAX_WARNED_FIELDS.',
  },
  // Rate limits (per deployment; per-contact delivery throttles will join them)
  API_THROTTLE_RATE: {
    value: 50,
    unit: 'requests per second',
    applies: 'the whole API, steady state (`hark:throttleRateLimit`)',
    reason: 'API Gateway stage throttling: a runaway client gets 429 before it exhausts Lambda concurrency.',
  },
  API_THROTTLE_BURST: {
    value: 100,
    unit: 'requests',
    applies: 'the whole API, burst (`hark:throttleBurstLimit`)',
    reason: 'Room for short spikes above the steady rate.',
  },
  WEBHOOK_THROTTLE_RATE: {
    value: 1_000,
    unit: 'requests per second',
    applies: 'the webhook routes (`/integration/{id}`), steady state (`hark:webhookThrottleRateLimit`), instead of the API’s',
    reason: 'An alert storm must reach the queue: twice the 500 creates/s per account the capacity model sizes for (docs/capacity.md), a tenth of API Gateway’s account quota.',
  },
  WEBHOOK_THROTTLE_BURST: {
    value: 2_000,
    unit: 'requests',
    applies: 'the webhook routes, burst (`hark:webhookThrottleBurstLimit`)',
    reason: 'Monitors fire together when a region wobbles: two seconds of the steady rate at once.',
  },
  // Timers
  MAX_WAKE_UP_DELAY_SECONDS: {
    value: 900,
    unit: 'seconds',
    applies: 'the delay of one timer wake-up message',
    reason: 'SQS refuses a per-message delay above 15 minutes (the local emulator accepts more, so Hark clamps).',
  },
  MAX_TIME_SCALE: {
    value: 3600,
    unit: 'times faster',
    applies: 'HARK_TIME_SCALE (local runtime only)',
    reason: 'One day of waiting in under 30 seconds is already faster than any demo needs.',
  },
  MAX_CONFIG_CACHE_MS: {
    value: 60_000,
    unit: 'milliseconds',
    applies: 'HARK_CONFIG_CACHE_MS, how long a process serves a create’s configuration reads from memory',
    reason: 'A change made through the API reaches the pages of other processes within this time; a minute is the most an on-call product may lag its own schedules.',
  },
  CONFIG_CACHE_ENTRIES: {
    value: 5_000,
    unit: 'cached reads per process',
    applies: 'the configuration reads a process remembers (an item, a collection or a schedule’s events each); the oldest goes first',
    reason: 'A storm touches a few dozen configuration reads per account a second; the bound keeps a process’s memory flat however many accounts it serves.',
  },
  // Text lengths
  NAME_LENGTH: { value: 255, unit: 'characters', applies: 'names and other required short texts', reason: 'Names are labels, shown in lists and messages.' },
  TEXT_LENGTH: { value: 10_000, unit: 'characters', applies: 'notes, descriptions and other free texts', reason: 'Long enough for a runbook excerpt; bounds item size.' },
  COMMENT_BODY_MAX_CHARACTERS: {
    value: 10_000,
    unit: 'characters (code points)',
    applies: 'comment `body`',
    reason: 'A comment is a note, not an attachment; bounds the alert partition’s item size.',
  },
  COMMENT_LOG_EXCERPT_CHARACTERS: {
    value: 80,
    unit: 'characters (code points)',
    applies: 'the excerpt of a comment in its alert’s `commented` log entry (longer: cut, with `…`)',
    reason: 'A timeline line, not the comment: the whole text stays on the comment.',
  },
  EMAIL_LENGTH: { value: 254, unit: 'characters', applies: 'email addresses', reason: 'The longest address SMTP can carry (RFC 5321 path limit).' },
  PHONE_TEXT_LENGTH: { value: 64, unit: 'characters', applies: 'phone numbers as sent', reason: 'Generous for any formatting of an E.164 number.' },
  LANGUAGE_TAG_LENGTH: { value: 35, unit: 'characters', applies: 'user `language`', reason: 'The longest BCP 47 tag in practical use (RFC 5646 advises 35).' },
  MAX_ALERT_KEY_LENGTH: { value: 1024, unit: 'characters', applies: 'the alert Id a webhook sends (a longer one: the request is logged as ignored) and `thirdparty_id` on POST /alerts (422)', reason: 'Longer ids are refused, never silently cut (two alerts would merge).' },
  TINY_ID_SEARCH: { value: 1000, unit: 'alerts', applies: 'an Opsgenie call naming an alert by tiny id (`identifierType=tiny`) looks among the account’s newest alerts only', reason: 'Alerts have no tiny id index; people name recent alerts by tiny id, and one Query of 1,000 keys stays cheap.' },
  MAX_MONITOR_LINKS: { value: 10, unit: 'links', applies: 'the links a monitor reader keeps on an alert it creates (Alertmanager, Grafana, Datadog, Sentry, Google Cloud; the first ones, the rest noted)', reason: 'A group of many members repeats the same few links; ten leave room for the captured fields.' },
  MONITOR_LINK_LENGTH: { value: 2_048, unit: 'characters', applies: 'one link a monitor reader keeps (longer: left out, noted)', reason: 'The longest URL browsers and proxies reliably carry.' },
  MAX_RULES_TEXT_LENGTH: { value: 65_536, unit: 'characters', applies: 'router and notification rule documents', reason: 'Far beyond any hand-written document; stored on the object itself.' },
  MAX_RULES_VALUES: { value: 10_000, unit: 'values (aliases expanded)', applies: 'router and notification rule documents', reason: 'YAML aliases can multiply a small text; this bounds what validation and matching walk.' },
  MAX_QUERY_DEPTH: { value: 32, unit: 'levels', applies: 'nesting of a rule’s match query', reason: 'Keeps matching a bounded walk.' },
  MAX_TIME_FORMAT_LENGTH: { value: 64, unit: 'characters', applies: 'time formats in rule templates', reason: 'A format is a pattern, not a text.' },
  // Expressions users write: rule regexes, router templates, wrapper keys (docs/security.md, "Expressions users write")
  MAX_REGEX_LENGTH: { value: 1_000, unit: 'characters', applies: 'a rule’s `$regex` pattern', reason: 'A pattern, not a text; bounds the program RE2 compiles and runs over each field in linear time.' },
  MAX_TEMPLATE_LENGTH: { value: 2_000, unit: 'characters', applies: 'one Handlebars template of a router action (`handlebars: true`)', reason: 'A template is a pattern; with values seen cut to 10,000 characters it bounds what one render prints outside blocks.' },
  MAX_TEMPLATE_BLOCK_DEPTH: { value: 3, unit: 'levels', applies: 'blocks (`{{#each}}`, `{{#if}}`, `{{#with}}`, …) nested in one template', reason: 'Nested `#each` multiply: four levels over 50 tags are 6 million iterations.' },
  MAX_TEMPLATE_ITERATIONS: { value: 10_000, unit: 'block bodies', applies: 'the block bodies (each `#each` iteration, each branch taken) one render runs', reason: 'Beyond it the render stops and the field keeps its value, with a log entry (docs/routing.md).' },
  MAX_TEMPLATE_OUTPUT: { value: 100_000, unit: 'characters', applies: 'text the blocks of one render build, all levels counted', reason: 'Ten times the longest field a template sets; bounds the memory of one render.' },
  MAX_WRAPPER_KEY_LENGTH: { value: 2_000, unit: 'characters', applies: 'an integration’s `wrapper_key`', reason: 'An expression that picks or builds fields; the Zabbix recipe is under 400.' },
  MAX_WRAPPER_KEY_DEPTH: { value: 32, unit: 'levels', applies: 'nesting of a wrapper key’s expression', reason: 'Keeps parsing and evaluating a bounded walk.' },
  MAX_WRAPPER_KEY_PROJECTIONS: { value: 8, unit: 'projections', applies: 'projections (`[*]`, `[]`, `[?…]`, `.*`) nested in a wrapper key', reason: 'Each nested projection multiplies the work; 22 nested took 7.5 s and 2.4 GB before this limit.' },
  MAX_WRAPPER_KEY_STEPS: { value: 1_000_000, unit: 'steps', applies: 'evaluating a wrapper key on one payload: each node visited, plus each element, key or character a node builds', reason: 'About a tenth of a second; a request that needs more is logged as ignored, the worker never stalls.' },
  MAX_WRAPPER_KEY_TEXT: { value: 262_144, unit: 'characters', applies: 'text one wrapper key function may build (`pad_left`, `pad_right`, `replace`, `join`) and `replace`’s count', reason: 'As long as the largest body; a longer text could only be padding and would exhaust memory.' },
  // Counts
  MAX_EMAILS: { value: 10, unit: 'emails', applies: 'one user', reason: 'Keeps every profile change within one transaction (each email is a lookup item).' },
  MAX_PHONES: { value: 10, unit: 'phones', applies: 'one user', reason: 'Keeps every profile change within one transaction.' },
  MAX_TEAMS_PER_REQUEST: { value: 50, unit: 'ids', applies: 'account user `member_team_ids` / `team_ids`', reason: 'Each team changed is one more item in the transaction.' },
  MAX_TEAM_LIST: { value: 500, unit: 'ids', applies: 'each account user list of a team', reason: 'Bounds a team item far below DynamoDB’s 400 KB.' },
  MAX_SCHEDULES_PER_EVENT: { value: 20, unit: 'schedules', applies: 'event `schedule_ids`', reason: 'Each schedule holds a membership item written with the event.' },
  MAX_ATTENDEES: { value: 100, unit: 'account users', applies: 'event `account_user_ids` (a rotation)', reason: 'A rotation longer than 100 people is a mistake; bounds expansion.' },
  MAX_EXCEPTIONS: { value: 1_000, unit: 'exceptions', applies: 'one event', reason: 'Bounds the event item and its expansion.' },
  MAX_WINDOW_DAYS: { value: 366, unit: 'days', applies: 'window_events `start`..`end`', reason: 'One year of occurrences is the largest view clients ask for.' },
  MAX_WINDOW_ENTRIES: { value: 21_539, unit: 'on-call entries', applies: 'window_events: the most entries of one uncompressed answer (and of one page); counted while the window is expanded', reason: 'The most entries of the smallest possible size one 6 MB Lambda response carries; a window holding more is sent compressed or in pages, never built whole.' },
  MAX_WINDOW_GZIP_ENTRIES: { value: 50_000, unit: 'on-call entries', applies: 'window_events answered whole with gzip (more: pages)', reason: 'About 25 MB of JSON, under 2 MB compressed, and within a 512 MB Lambda’s memory while it is built.' },
  WINDOW_PAGE_ENTRIES: { value: 5_000, unit: 'on-call entries', applies: 'window_events: one page when `limit` is not given and the window is too large for one answer', reason: 'A page of a few MB at most that a client parses quickly; `limit` (1 to MAX_WINDOW_ENTRIES) chooses another size.' },
  TIME_OFF_REASON_LENGTH: { value: 1_000, unit: 'characters', applies: 'time off `reason`', reason: 'A line or two saying why; the rest belongs in the team’s own tools.' },
  MAX_TIME_OFF_DAYS: { value: 366, unit: 'days', applies: 'one time off, `start_time`..`end_time`', reason: 'A year of leave is the longest one record needs; a longer absence is several records, or leaving the rotation.' },
  ICAL_PAST_DAYS: { value: 14, unit: 'days', applies: 'calendar feeds: shifts ending up to this long ago', reason: 'Two weeks back shows the last hand-offs without making every refresh expand the whole history.' },
  ICAL_FUTURE_DAYS: { value: 90, unit: 'days', applies: 'calendar feeds: shifts starting up to this far ahead', reason: 'A quarter ahead is what people plan leave and swaps against; each refresh stays one bounded expansion.' },
  ICAL_MAX_SHIFTS: { value: 5_000, unit: 'shifts', applies: 'one calendar feed (more: the ones from now on, in time order)', reason: 'About 2 MB of iCalendar text, one Lambda response; a schedule busier than that is read better through window_events.' },
  GAP_NOTICE_DAYS: { value: 7, unit: 'days', applies: 'the daily schedule gap check: gaps starting this far ahead are told to the team’s admins', reason: 'A week leaves time to find cover without telling people about holes months away that will be filled anyway.' },
  MAX_LAYERS: { value: 20, unit: 'layers', applies: 'one escalation policy', reason: 'Twenty escalation steps outlast any incident response.' },
  MAX_TIMEOUT_MINUTES: { value: 30 * 1440, unit: 'minutes', applies: 'an escalation layer’s timeout', reason: 'Thirty days; a longer wait is not escalation.' },
  MAX_REPEAT: { value: 3, unit: 'repeats', applies: 'escalation policy `repeat`', reason: 'Policies repeat 0 to 3 times, as in the API Hark mirrors.' },
  MAX_REASSIGN_IDS: { value: 50, unit: 'ids', applies: 'policy `reassign_team_ids` / `reassign_account_user_ids`', reason: 'Bounds the policy item.' },
  MAX_REPEAT_TIMES: { value: 3, unit: 'repeats', applies: 'notification rule `repeat.times`', reason: 'Notification cycles repeat 0 to 3 times, as escalation policies do.' },
  MAX_RULE_RECEIVERS: { value: 90, unit: 'receivers', applies: 'distinct receivers one router’s rules name', reason: 'Each receiver is checked and touched in the write’s transaction (100 items at most).' },
  MAX_ROUTER_DEPTH: { value: 10, unit: 'routers', applies: 'routers passing an alert on to routers, counted from the alert’s own router', reason: 'Deeper is a mistake or a cycle; that route of the alert is dropped with a log entry saying why.' },
  MAX_ROUTER_EVALUATIONS: { value: 100, unit: 'routers', applies: 'routers run for one alert, all routes together', reason: 'Routers that fan out to each other in a cycle would otherwise run exponentially often before the depth limit stops them.' },
  MAX_DESTINATIONS: { value: 50, unit: 'ids', applies: 'integration `account_user_ids` + `router_ids` + `team_ids`', reason: 'Each destination is a reference item written with the integration.' },
  MAX_WINDOW_INTEGRATIONS: { value: 50, unit: 'ids', applies: 'maintenance window `integration_ids`', reason: 'Each integration is a reference item written with the window.' },
  // Outgoing webhooks (docs/outgoing-webhooks.md)
  MAX_OUTGOING_WEBHOOKS: { value: 20, unit: 'subscriptions', applies: 'outgoing webhooks of one account', reason: 'An event fans out to every subscription in small transactions; twenty endpoints cover every tool a team connects.' },
  WEBHOOK_DEFAULT_TIMEOUT_SECONDS: { value: 15, unit: 'seconds', applies: 'outgoing webhook `timeout_seconds` when absent', reason: 'Long enough for a ticketing system that creates the ticket before answering.' },
  WEBHOOK_MAX_TIMEOUT_SECONDS: { value: 30, unit: 'seconds', applies: 'outgoing webhook `timeout_seconds` (1 to 30)', reason: 'A receiver should answer fast and work later; the sending Lambda must outlive the wait.' },
  WEBHOOK_RESPONSE_BODY_BYTES: { value: 4096, unit: 'bytes', applies: 'the response body kept in the delivery log', reason: 'Enough to read an error message; keeps a delivery item small.' },
  WEBHOOK_MAX_ATTEMPTS: { value: WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1, unit: 'attempts', applies: 'scheduled attempts of one delivery (the first and the 7 retries of WEBHOOK_RETRY_SCHEDULE_SECONDS)', reason: 'About 28 hours of retries: a receiver down for a day still gets every event.' },
  WEBHOOK_MAX_RETRY_AFTER_SECONDS: { value: Math.max(...WEBHOOK_RETRY_SCHEDULE_SECONDS), unit: 'seconds', applies: 'a receiver’s `Retry-After`', reason: 'Honoured up to the schedule’s longest wait, so a bad header cannot park a delivery for weeks.' },
  WEBHOOK_DISABLE_AFTER_DAYS: { value: 5, unit: 'days', applies: 'continuous failure of an outgoing webhook before it is disabled', reason: 'Long enough to outlast a weekend outage; then the owner is told instead of retrying for ever.' },
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: { value: 4, unit: 'requests in flight', applies: 'one outgoing webhook', reason: 'A slow receiver holds at most this many senders; other subscriptions and paging are not delayed.' },
  WEBHOOK_SECRET_GRACE_SECONDS: { value: 86_400, unit: 'seconds', applies: 'rotate_secret `grace_seconds` default and maximum (7 days max)', reason: 'During the grace both secrets sign, so receivers can switch without missing an event.' },
  WEBHOOK_MAX_SECRET_GRACE_SECONDS: { value: 7 * 86_400, unit: 'seconds', applies: 'rotate_secret `grace_seconds`', reason: 'An old secret should not stay valid for long.' },
  WEBHOOK_DELIVERY_RETENTION_DAYS: { value: 30, unit: 'days', applies: 'a finished delivery in the delivery log', reason: 'DynamoDB TTL removes it; a month covers every investigation and replay.' },
  MAX_BROADCAST_DESTINATIONS: { value: 50, unit: 'ids', applies: 'broadcast `destination_team_ids`, `destination_account_user_ids` (each) and `tag_list`', reason: 'Each destination is read when the broadcast is created and expanded when it is sent.' },
  MAX_BROADCAST_OPTIONS: { value: 20, unit: 'options', applies: 'broadcast `broadcast_response_options_attributes`', reason: 'Each option is one signed link in every message; twenty already makes a long message.' },
  MAX_BROADCAST_RECIPIENTS: { value: 1_000, unit: 'people', applies: 'the people one broadcast reaches when it is created (teams expanded, repeats counted once)', reason: 'Every answer is kept on the broadcast item (400 KB at most), so answers and counts change in one conditional write.' },
  ERRORED_REASON_LENGTH: { value: 1_000, unit: 'characters', applies: 'a broadcast’s `errored_reason` (longer: cut, with `…`)', reason: 'A summary on the object; provider errors can be long, and each notification keeps its own whole.' },
  // Delivery
  DELIVERY_ATTEMPTS: { value: 5, unit: 'attempts', applies: 'sending one notification record', reason: 'A provider outage of about 40 minutes (30 s + 2 + 8 + 30 min of waits) is retried through; then the record is failed and logged on the alert.' },
  DELIVERY_FIRST_RETRY_SECONDS: { value: 30, unit: 'seconds', applies: 'the wait before the second attempt (each later wait is 4 times longer)', reason: 'Long enough for a provider’s brief hiccup, short enough for a page.' },
  DELIVERY_MAX_RETRY_SECONDS: { value: 1_800, unit: 'seconds', applies: 'the longest wait between two attempts', reason: 'A page that waits longer than half an hour is better failed and seen on the alert.' },
  // Delivery throttles per contact method (channel + address); windows are divided by HARK_TIME_SCALE (docs/notifications.md, "The throttle")
  CONTACT_MESSAGES_PER_MINUTE: { value: 1, unit: 'message per minute', applies: 'SMS, voice calls, WhatsApp and email to one contact method', reason: 'A flapping monitor must not turn a phone into a buzzer; later messages wait and go out bundled.' },
  SMS_PER_15_MINUTES: { value: 5, unit: 'messages per 15 minutes', applies: 'SMS and WhatsApp to one number', reason: 'GoAlert’s default rolling cap; keeps carriers from flagging the sender as spam.' },
  SMS_PER_HOUR: { value: 11, unit: 'messages per hour', applies: 'SMS and WhatsApp to one number', reason: 'GoAlert’s default rolling cap for a long incident.' },
  SMS_PER_3_HOURS: { value: 21, unit: 'messages per 3 hours', applies: 'SMS and WhatsApp to one number', reason: 'GoAlert’s default rolling cap; bounds the cost of a night of flapping.' },
  VOICE_CALLS_PER_15_MINUTES: { value: 3, unit: 'calls per 15 minutes', applies: 'voice calls to one number', reason: 'GoAlert’s default: a call interrupts more than a text.' },
  VOICE_CALLS_PER_HOUR: { value: 7, unit: 'calls per hour', applies: 'voice calls to one number', reason: 'GoAlert’s default rolling cap for calls.' },
  VOICE_CALLS_PER_3_HOURS: { value: 15, unit: 'calls per 3 hours', applies: 'voice calls to one number', reason: 'GoAlert’s default rolling cap for calls.' },
  SMS_TEXT_LENGTH: { value: 480, unit: 'characters', applies: 'one SMS Hark sends (longer texts are cut, the reply instruction kept)', reason: 'Three concatenated segments: read on a lock screen, and a bounded cost per page.' },
  VOICE_SPEECH_LENGTH: { value: 600, unit: 'characters', applies: 'what a voice call reads out', reason: 'About forty seconds of speech; Twilio takes at most 4,000 characters of TwiML.' },
  // Messages
  ACTION_LINK_LIFETIME_HOURS: { value: 24, unit: 'hours', applies: 'a signed action link in a message (acknowledge, resolve, a broadcast answer)', reason: 'Long enough to act on a page read the next morning; a leaked link stops working within a day.' },
  SLACK_REQUEST_MAX_AGE_SECONDS: { value: 300, unit: 'seconds', applies: 'the `X-Slack-Request-Timestamp` of a Slack interaction', reason: 'Slack’s advice: an older signed request may be a replay.' },
  // Logs of webhook requests
  LOG_INLINE_BODY_BYTES: {
    value: 16 * 1024,
    unit: 'bytes',
    applies: 'a webhook body kept inside its log item and shown by `GET /logs` (larger: gzipped chunk items, shown by `GET /logs/:id`)',
    reason: 'Keeps log items and list pages small; no body size can make a log exceed the 400 KB item limit.',
  },
  MAX_LOG_NOTES_PER_STEP: { value: 20, unit: 'notes', applies: 'notes one worker step adds to a log', reason: 'Bounds the log item whatever a payload makes the worker say.' },
  MAX_LOG_NOTE_LENGTH: { value: 500, unit: 'characters', applies: 'one log note', reason: 'A note is a line in a log; longer ones are cut.' },
  // What Hark keeps inside one DynamoDB item (400 KB, 32 levels of nesting): checked when a request is accepted (docs/security.md, "Limits at the door")
  MAX_BODY_DEPTH: { value: 100, unit: 'levels', applies: 'nesting of arrays and objects in any JSON request body, the webhook’s included (deeper: 400)', reason: 'As deep as the reference service’s JSON parser reads; deeper is an attack, not a payload, and is refused before it is parsed.' },
  MAX_META_DEPTH: { value: 16, unit: 'levels', applies: '`meta` of every object (422); a webhook’s `Meta` keeps deeper values as JSON text', reason: 'DynamoDB stores 32 levels in an item and Hark wraps meta in up to 4 more (an outgoing-webhook event); 16 leaves room for both.' },
  MAX_META_BYTES: { value: 64 * 1024, unit: 'bytes (as JSON)', applies: '`meta` of every object (422); a webhook’s `Meta` keeps its first keys within it', reason: 'Meta rides on the object’s item and on every event that copies it; this keeps them within DynamoDB’s 400 KB item limit.' },
  MAX_ADDITIONAL_DATA_BYTES: { value: 128 * 1024, unit: 'bytes (as JSON)', applies: 'an alert’s `additional_data` (422); a webhook’s captured data keeps its first entries within it', reason: 'With the other bounded fields an alert item stays below 400 KB, with room for its escalation state.' },
  WEBHOOK_EVENT_DATA_BYTES: { value: 256 * 1024, unit: 'bytes (as JSON)', applies: 'the `data` of one outgoing webhook event (larger: its largest fields are emptied and named in `data.omitted`)', reason: 'The event is stored once with its change and once per delivery with its attempts, each within DynamoDB’s 400 KB item limit.' },
  DYNAMODB_PARTITION_KEY_BYTES: { value: 2048, unit: 'bytes', applies: 'a partition key holding a client’s text (an alert’s `thirdparty_id`); a longer one holds the text’s SHA-256 instead', reason: 'DynamoDB’s partition key limit: an Id of 1,024 characters can take 4 KB of UTF-8, and such an alert must still be stored and found.' },
  STORAGE_ATTEMPTS: { value: 4, unit: 'attempts', applies: 'one DynamoDB request (the AWS SDK retries throttling, 5xx and network failures with backoff)', reason: 'Rides out a throttle or a failing node; a failure that persists is answered 503 instead of running into the API’s timeout.' },
  UNAVAILABLE_RETRY_AFTER_SECONDS: { value: 5, unit: 'seconds', applies: '`Retry-After` of a 503 (storage or the ingest queue unavailable)', reason: 'Long enough for a throttle to ease, short enough that a retried alert is not late.' },
  SIGN_IN_LINK_MINUTES: { value: 15, unit: 'minutes', applies: 'a console sign-in link (`/sign-in/<token>`), which also works once only', reason: 'Long enough to open a mail on another device; a link left in an inbox stops working soon.' },
  SIGN_IN_LINKS_PER_ADDRESS: { value: 5, unit: 'links per address per 15 minutes', applies: 'console sign-in requests for one email address (over it: the same page, no mail)', reason: 'Enough for a person who retries; a stranger cannot flood someone’s inbox with sign-in mail.' },
  SIGN_IN_REQUESTS_PER_IP: { value: 30, unit: 'requests per source address per minute', applies: '`POST /sign-in` from one source address (over it: the same page, no mail)', reason: 'Stops one client from trying address after address, or mailing many people, while a shared office NAT still signs in.' },
  SESSION_HOURS: { value: 12, unit: 'hours', applies: 'a console session since its last use (sliding; each use extends it)', reason: 'A night’s shift signed in once; a session left on a shared computer ends the same day.' },
  SESSION_TOUCH_MINUTES: { value: 5, unit: 'minutes', applies: 'how stale a session’s expiry may get before a page view extends it', reason: 'One write per session per few minutes instead of one per page; costs at most this much of the 12 hours.' },
  CONSOLE_PAGE_SIZE: { value: 25, unit: 'alerts', applies: 'one page of the console’s alert list', reason: 'A screen or two on a phone; the API’s larger pages are for programs.' },
  CONSOLE_SEARCH_WINDOW: { value: 1000, unit: 'alerts', applies: 'the newest alerts of one index a console alert search (urgency, text, or a team with a status) reads', reason: 'A view and its 30 s refresh cost the same at 1,000 alerts as at a million; the API searches every alert.' },
  CONSOLE_SCHEDULE_DAYS: { value: 14, unit: 'days', applies: 'the schedule picture and shift table of `/schedules/<id>`', reason: 'Two weeks shows this and next week’s hand-offs while staying one bounded expansion of the schedule.' },
  CONSOLE_INTEGRATION_LOGS: { value: 5, unit: 'requests', applies: 'the last requests shown per integration on `/integrations`', reason: 'Enough to see what Hark made of the last few webhooks; the logs API has the rest.' },
  CONSOLE_INBOX_MESSAGES: { value: 50, unit: 'messages', applies: 'the newest local-inbox messages `/inbox` shows', reason: 'A page of recent messages; older ones stay in each alert’s notifications.' },
  // Monitors that are not plain webhooks (docs/monitors.md)
  SNS_CERTIFICATE_BYTES: { value: 16_384, unit: 'bytes', applies: 'an Amazon SNS signing certificate fetched from SNS', reason: 'A certificate is about 2 KB; a bound keeps a misbehaving endpoint from filling the webhook’s memory.' },
  SNS_CERTIFICATE_FETCH_MS: { value: 5000, unit: 'milliseconds', applies: 'fetching an SNS signing certificate or confirming a subscription (GET SubscribeURL)', reason: 'SNS answers in well under a second; a slow fetch becomes a 503 SNS retries, within the webhook’s own timeout.' },
  SNS_TOPICS_PER_INTEGRATION: { value: 20, unit: 'entries', applies: 'an aws_cloudwatch integration’s `topic_arns`, and its `aws_account_ids`', reason: 'A handful of topics or accounts per integration; more is better split into integrations per team.' },
  HEARTBEAT_MIN_INTERVAL_SECONDS: { value: 60, unit: 'seconds', applies: 'a heartbeat integration’s `interval_seconds`, at least', reason: 'A shorter beat is better served by a monitor that pages on its own; each ping is a request and a timer write.' },
  HEARTBEAT_MAX_INTERVAL_SECONDS: { value: 604_800, unit: 'seconds', applies: 'a heartbeat integration’s `interval_seconds`, at most (7 days)', reason: 'A weekly job is the slowest beat worth watching; longer silences are forgotten, not missed.' },
  HEARTBEAT_MAX_GRACE_SECONDS: { value: 86_400, unit: 'seconds', applies: 'a heartbeat integration’s `grace_seconds` (0 to 1 day)', reason: 'Room for a job that runs late; a longer grace would hide a missed beat for more than a day.' },
  INBOUND_EMAIL_BYTES: { value: 1_048_576, unit: 'bytes', applies: 'one email sent to an email integration (the raw message, attachments included)', reason: 'Alert mails are text; a larger one is refused at the SMTP level (552) and, on AWS, dropped with a log line.' },
} as const satisfies Record<string, Limit>;
export type LimitName = keyof typeof LIMITS;

export const COLLECTION_LIMIT: number = LIMITS.COLLECTION_LIMIT.value;
export const TRANSACTION_ITEMS: number = LIMITS.TRANSACTION_ITEMS.value;
export const ALERT_LOG_ITEM_BYTES: number = LIMITS.ALERT_LOG_ITEM_BYTES.value;
export const COUNTER_SHARDS: number = LIMITS.COUNTER_SHARDS.value;
export const OUTBOX_SHARDS: number = LIMITS.OUTBOX_SHARDS.value;
export const DEFAULT_PAGE_SIZE: number = LIMITS.DEFAULT_PAGE_SIZE.value;
export const MAX_PAGE_SIZE: number = LIMITS.MAX_PAGE_SIZE.value;
export const MAX_LIST_OFFSET: number = LIMITS.MAX_LIST_OFFSET.value;
export const DEFAULT_MAX_BODY_BYTES: number = LIMITS.DEFAULT_MAX_BODY_BYTES.value;
export const MAX_BODY_BYTES_SETTING: number = LIMITS.MAX_BODY_BYTES_SETTING.value;
export const MAX_MESSAGE_BYTES: number = LIMITS.MAX_MESSAGE_BYTES.value;
export const MAX_PATH_ID_LENGTH: number = LIMITS.MAX_PATH_ID_LENGTH.value;
export const MAX_LAMBDA_RESPONSE_BYTES: number = LIMITS.MAX_LAMBDA_RESPONSE_BYTES.value;
export const API_THROTTLE_RATE: number = LIMITS.API_THROTTLE_RATE.value;
export const API_THROTTLE_BURST: number = LIMITS.API_THROTTLE_BURST.value;
export const WEBHOOK_THROTTLE_RATE: number = LIMITS.WEBHOOK_THROTTLE_RATE.value;
export const WEBHOOK_THROTTLE_BURST: number = LIMITS.WEBHOOK_THROTTLE_BURST.value;
export const MAX_WAKE_UP_DELAY_SECONDS: number = LIMITS.MAX_WAKE_UP_DELAY_SECONDS.value;
export const MAX_WARNED_FIELDS: number = LIMITS.MAX_WARNED_FIELDS.value;
export const WARNED_FIELD_NAME_LENGTH: number = LIMITS.WARNED_FIELD_NAME_LENGTH.value;
export const MAX_TIME_SCALE: number = LIMITS.MAX_TIME_SCALE.value;
export const MAX_CONFIG_CACHE_MS: number = LIMITS.MAX_CONFIG_CACHE_MS.value;
export const CONFIG_CACHE_ENTRIES: number = LIMITS.CONFIG_CACHE_ENTRIES.value;
export const NAME_LENGTH: number = LIMITS.NAME_LENGTH.value;
export const TEXT_LENGTH: number = LIMITS.TEXT_LENGTH.value;
export const COMMENT_BODY_MAX_CHARACTERS: number = LIMITS.COMMENT_BODY_MAX_CHARACTERS.value;
export const COMMENT_LOG_EXCERPT_CHARACTERS: number = LIMITS.COMMENT_LOG_EXCERPT_CHARACTERS.value;
export const EMAIL_LENGTH: number = LIMITS.EMAIL_LENGTH.value;
export const PHONE_TEXT_LENGTH: number = LIMITS.PHONE_TEXT_LENGTH.value;
export const LANGUAGE_TAG_LENGTH: number = LIMITS.LANGUAGE_TAG_LENGTH.value;
export const MAX_ALERT_KEY_LENGTH: number = LIMITS.MAX_ALERT_KEY_LENGTH.value;
export const MAX_MONITOR_LINKS: number = LIMITS.MAX_MONITOR_LINKS.value;
export const TINY_ID_SEARCH: number = LIMITS.TINY_ID_SEARCH.value;
export const MONITOR_LINK_LENGTH: number = LIMITS.MONITOR_LINK_LENGTH.value;
export const MAX_RULES_TEXT_LENGTH: number = LIMITS.MAX_RULES_TEXT_LENGTH.value;
export const MAX_RULES_VALUES: number = LIMITS.MAX_RULES_VALUES.value;
export const MAX_QUERY_DEPTH: number = LIMITS.MAX_QUERY_DEPTH.value;
export const MAX_TIME_FORMAT_LENGTH: number = LIMITS.MAX_TIME_FORMAT_LENGTH.value;
export const MAX_REGEX_LENGTH: number = LIMITS.MAX_REGEX_LENGTH.value;
export const MAX_TEMPLATE_LENGTH: number = LIMITS.MAX_TEMPLATE_LENGTH.value;
export const MAX_TEMPLATE_BLOCK_DEPTH: number = LIMITS.MAX_TEMPLATE_BLOCK_DEPTH.value;
export const MAX_TEMPLATE_ITERATIONS: number = LIMITS.MAX_TEMPLATE_ITERATIONS.value;
export const MAX_TEMPLATE_OUTPUT: number = LIMITS.MAX_TEMPLATE_OUTPUT.value;
export const MAX_WRAPPER_KEY_LENGTH: number = LIMITS.MAX_WRAPPER_KEY_LENGTH.value;
export const MAX_WRAPPER_KEY_DEPTH: number = LIMITS.MAX_WRAPPER_KEY_DEPTH.value;
export const MAX_WRAPPER_KEY_PROJECTIONS: number = LIMITS.MAX_WRAPPER_KEY_PROJECTIONS.value;
export const MAX_WRAPPER_KEY_STEPS: number = LIMITS.MAX_WRAPPER_KEY_STEPS.value;
export const MAX_WRAPPER_KEY_TEXT: number = LIMITS.MAX_WRAPPER_KEY_TEXT.value;
export const MAX_EMAILS: number = LIMITS.MAX_EMAILS.value;
export const MAX_PHONES: number = LIMITS.MAX_PHONES.value;
export const MAX_TEAMS_PER_REQUEST: number = LIMITS.MAX_TEAMS_PER_REQUEST.value;
export const MAX_TEAM_LIST: number = LIMITS.MAX_TEAM_LIST.value;
export const MAX_SCHEDULES_PER_EVENT: number = LIMITS.MAX_SCHEDULES_PER_EVENT.value;
export const MAX_ATTENDEES: number = LIMITS.MAX_ATTENDEES.value;
export const MAX_EXCEPTIONS: number = LIMITS.MAX_EXCEPTIONS.value;
export const MAX_WINDOW_MS: number = LIMITS.MAX_WINDOW_DAYS.value * 24 * 3_600_000;
export const MAX_WINDOW_ENTRIES: number = LIMITS.MAX_WINDOW_ENTRIES.value;
export const MAX_WINDOW_GZIP_ENTRIES: number = LIMITS.MAX_WINDOW_GZIP_ENTRIES.value;
export const WINDOW_PAGE_ENTRIES: number = LIMITS.WINDOW_PAGE_ENTRIES.value;
export const TIME_OFF_REASON_LENGTH: number = LIMITS.TIME_OFF_REASON_LENGTH.value;
export const MAX_TIME_OFF_DAYS: number = LIMITS.MAX_TIME_OFF_DAYS.value;
export const MAX_TIME_OFF_MS: number = LIMITS.MAX_TIME_OFF_DAYS.value * 24 * 3_600_000;
export const ICAL_PAST_DAYS: number = LIMITS.ICAL_PAST_DAYS.value;
export const ICAL_FUTURE_DAYS: number = LIMITS.ICAL_FUTURE_DAYS.value;
export const ICAL_MAX_SHIFTS: number = LIMITS.ICAL_MAX_SHIFTS.value;
export const GAP_NOTICE_DAYS: number = LIMITS.GAP_NOTICE_DAYS.value;
export const MAX_LAYERS: number = LIMITS.MAX_LAYERS.value;
export const MAX_TIMEOUT_MINUTES: number = LIMITS.MAX_TIMEOUT_MINUTES.value;
export const MAX_REPEAT: number = LIMITS.MAX_REPEAT.value;
export const MAX_REASSIGN_IDS: number = LIMITS.MAX_REASSIGN_IDS.value;
export const MAX_REPEAT_TIMES: number = LIMITS.MAX_REPEAT_TIMES.value;
export const MAX_RULE_RECEIVERS: number = LIMITS.MAX_RULE_RECEIVERS.value;
export const MAX_ROUTER_DEPTH: number = LIMITS.MAX_ROUTER_DEPTH.value;
export const MAX_ROUTER_EVALUATIONS: number = LIMITS.MAX_ROUTER_EVALUATIONS.value;
export const MAX_DESTINATIONS: number = LIMITS.MAX_DESTINATIONS.value;
export const MAX_WINDOW_INTEGRATIONS: number = LIMITS.MAX_WINDOW_INTEGRATIONS.value;
export const MAX_OUTGOING_WEBHOOKS: number = LIMITS.MAX_OUTGOING_WEBHOOKS.value;
export const WEBHOOK_DEFAULT_TIMEOUT_SECONDS: number = LIMITS.WEBHOOK_DEFAULT_TIMEOUT_SECONDS.value;
export const WEBHOOK_MAX_TIMEOUT_SECONDS: number = LIMITS.WEBHOOK_MAX_TIMEOUT_SECONDS.value;
export const WEBHOOK_RESPONSE_BODY_BYTES: number = LIMITS.WEBHOOK_RESPONSE_BODY_BYTES.value;
export const WEBHOOK_MAX_ATTEMPTS: number = LIMITS.WEBHOOK_MAX_ATTEMPTS.value;
export const WEBHOOK_MAX_RETRY_AFTER_SECONDS: number = LIMITS.WEBHOOK_MAX_RETRY_AFTER_SECONDS.value;
export const WEBHOOK_DISABLE_AFTER_DAYS: number = LIMITS.WEBHOOK_DISABLE_AFTER_DAYS.value;
export const WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: number = LIMITS.WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION.value;
export const WEBHOOK_SECRET_GRACE_SECONDS: number = LIMITS.WEBHOOK_SECRET_GRACE_SECONDS.value;
export const WEBHOOK_MAX_SECRET_GRACE_SECONDS: number = LIMITS.WEBHOOK_MAX_SECRET_GRACE_SECONDS.value;
export const WEBHOOK_DELIVERY_RETENTION_DAYS: number = LIMITS.WEBHOOK_DELIVERY_RETENTION_DAYS.value;
export const MAX_BROADCAST_DESTINATIONS: number = LIMITS.MAX_BROADCAST_DESTINATIONS.value;
export const MAX_BROADCAST_OPTIONS: number = LIMITS.MAX_BROADCAST_OPTIONS.value;
export const MAX_BROADCAST_RECIPIENTS: number = LIMITS.MAX_BROADCAST_RECIPIENTS.value;
export const ERRORED_REASON_LENGTH: number = LIMITS.ERRORED_REASON_LENGTH.value;
export const DELIVERY_ATTEMPTS: number = LIMITS.DELIVERY_ATTEMPTS.value;
export const DELIVERY_FIRST_RETRY_SECONDS: number = LIMITS.DELIVERY_FIRST_RETRY_SECONDS.value;
export const DELIVERY_MAX_RETRY_SECONDS: number = LIMITS.DELIVERY_MAX_RETRY_SECONDS.value;
export const ACTION_LINK_LIFETIME_MS: number = LIMITS.ACTION_LINK_LIFETIME_HOURS.value * 3_600_000;
export const SLACK_REQUEST_MAX_AGE_MS: number = LIMITS.SLACK_REQUEST_MAX_AGE_SECONDS.value * 1000;
export const SMS_TEXT_LENGTH: number = LIMITS.SMS_TEXT_LENGTH.value;
export const VOICE_SPEECH_LENGTH: number = LIMITS.VOICE_SPEECH_LENGTH.value;
export const LOG_INLINE_BODY_BYTES: number = LIMITS.LOG_INLINE_BODY_BYTES.value;
export const MAX_LOG_NOTES_PER_STEP: number = LIMITS.MAX_LOG_NOTES_PER_STEP.value;
export const MAX_LOG_NOTE_LENGTH: number = LIMITS.MAX_LOG_NOTE_LENGTH.value;
export const MAX_BODY_DEPTH: number = LIMITS.MAX_BODY_DEPTH.value;
export const MAX_META_DEPTH: number = LIMITS.MAX_META_DEPTH.value;
export const MAX_META_BYTES: number = LIMITS.MAX_META_BYTES.value;
export const MAX_ADDITIONAL_DATA_BYTES: number = LIMITS.MAX_ADDITIONAL_DATA_BYTES.value;
export const WEBHOOK_EVENT_DATA_BYTES: number = LIMITS.WEBHOOK_EVENT_DATA_BYTES.value;
export const DYNAMODB_PARTITION_KEY_BYTES: number = LIMITS.DYNAMODB_PARTITION_KEY_BYTES.value;
export const STORAGE_ATTEMPTS: number = LIMITS.STORAGE_ATTEMPTS.value;
export const UNAVAILABLE_RETRY_AFTER_SECONDS: number = LIMITS.UNAVAILABLE_RETRY_AFTER_SECONDS.value;
export const SIGN_IN_LINK_MINUTES: number = LIMITS.SIGN_IN_LINK_MINUTES.value;
export const SIGN_IN_LINKS_PER_ADDRESS: number = LIMITS.SIGN_IN_LINKS_PER_ADDRESS.value;
export const SIGN_IN_REQUESTS_PER_IP: number = LIMITS.SIGN_IN_REQUESTS_PER_IP.value;
export const SESSION_HOURS: number = LIMITS.SESSION_HOURS.value;
export const SESSION_TOUCH_MINUTES: number = LIMITS.SESSION_TOUCH_MINUTES.value;
export const CONSOLE_PAGE_SIZE: number = LIMITS.CONSOLE_PAGE_SIZE.value;
export const CONSOLE_SEARCH_WINDOW: number = LIMITS.CONSOLE_SEARCH_WINDOW.value;
export const CONSOLE_SCHEDULE_DAYS: number = LIMITS.CONSOLE_SCHEDULE_DAYS.value;
export const CONSOLE_INTEGRATION_LOGS: number = LIMITS.CONSOLE_INTEGRATION_LOGS.value;
export const CONSOLE_INBOX_MESSAGES: number = LIMITS.CONSOLE_INBOX_MESSAGES.value;
export const SNS_CERTIFICATE_BYTES: number = LIMITS.SNS_CERTIFICATE_BYTES.value;
export const SNS_CERTIFICATE_FETCH_MS: number = LIMITS.SNS_CERTIFICATE_FETCH_MS.value;
export const SNS_TOPICS_PER_INTEGRATION: number = LIMITS.SNS_TOPICS_PER_INTEGRATION.value;
export const HEARTBEAT_MIN_INTERVAL_SECONDS: number = LIMITS.HEARTBEAT_MIN_INTERVAL_SECONDS.value;
export const HEARTBEAT_MAX_INTERVAL_SECONDS: number = LIMITS.HEARTBEAT_MAX_INTERVAL_SECONDS.value;
export const HEARTBEAT_MAX_GRACE_SECONDS: number = LIMITS.HEARTBEAT_MAX_GRACE_SECONDS.value;
export const INBOUND_EMAIL_BYTES: number = LIMITS.INBOUND_EMAIL_BYTES.value;
