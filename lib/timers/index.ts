// Durable timers: a wait stored in DynamoDB, woken by a delayed message on a standard SQS queue and swept when
// the message is lost. Owners (alerts) build to this contract; docs/timers.md describes it.

export type { DurableTimer, TimerHandler, TimerHandlers, TimerOwnerType } from './types.ts';
export { TIMER_OWNER_TYPES } from './types.ts';
export { isPending, timerFiredItem, timerKey, timerProgressItem, timerOwnerPk, timerPutItems, timersFirst, type TimerItem } from './items.ts';
export { sendWakeUps } from './wake-ups.ts';
export { markTimerFired } from './fire.ts';
