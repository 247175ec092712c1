// The picture of a schedule's next days, pure: one lane per layer, one bar per shift labelled with who is on call,
// overrides marked, a line at "now", day lines at the viewer's midnights. The template draws it as inline SVG; the
// same shifts feed the table beside it (docs/console.md, "Pages").
import { DateTime } from 'luxon';

export interface Shift {
  readonly layer: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly who: string;
  readonly override: boolean;
}

export interface Bar {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly label: string;
  /** The label drawn inside the bar only when it fits; the title (tooltip) always has it. */
  readonly showLabel: boolean;
  readonly labelX: number;
  readonly labelY: number;
  readonly override: boolean;
  readonly title: string;
}

export interface Picture {
  readonly width: number;
  readonly height: number;
  readonly lanes: readonly { y: number; height: number; label: string; labelY: number }[];
  readonly bars: readonly Bar[];
  readonly days: readonly { x: number; label: string; labelX: number }[];
  readonly now?: { x: number };
  readonly axisY: number;
}

export const PICTURE_WIDTH = 720;
const LANE_LABEL = 60;
const LANE_HEIGHT = 44;
const AXIS = 22;
/** Roughly how wide one character of the 12-unit label font is. */
const CHAR_WIDTH = 6.6;

/** Lays out the shifts of [fromMs, toMs) drawn in `zone`. */
export function pictureOf(shifts: readonly Shift[], layers: readonly number[], fromMs: number, toMs: number, nowMs: number, zone: string, when: (ms: number) => string): Picture {
  const plot = PICTURE_WIDTH - LANE_LABEL;
  const xOf = (ms: number) => LANE_LABEL + ((Math.min(Math.max(ms, fromMs), toMs) - fromMs) / (toMs - fromMs)) * plot;
  const laneY = (layer: number) => AXIS + layers.indexOf(layer) * LANE_HEIGHT;
  const bars = shifts
    .filter((s) => s.endMs > fromMs && s.startMs < toMs && layers.includes(s.layer))
    .map((s): Bar => {
      const x = xOf(s.startMs);
      const width = Math.max(1, xOf(s.endMs) - x);
      const y = laneY(s.layer) + (s.override ? 4 : 8);
      const height = LANE_HEIGHT - (s.override ? 8 : 16);
      const label = s.override ? `${s.who} (override)` : s.who;
      return {
        x: round(x),
        y,
        width: round(width),
        height,
        label,
        showLabel: width > label.length * CHAR_WIDTH + 6,
        labelX: round(x + 4),
        labelY: y + height / 2 + 4,
        override: s.override,
        title: `${label}: ${when(s.startMs)} – ${when(s.endMs)}`,
      };
    });
  const days: { x: number; label: string; labelX: number }[] = [];
  for (let day = DateTime.fromMillis(fromMs, { zone }).startOf('day').plus({ days: 1 }); day.toMillis() < toMs; day = day.plus({ days: 1 })) {
    const x = round(xOf(day.toMillis()));
    days.push({ x, label: day.toFormat('ccc d'), labelX: x + 2 });
  }
  return {
    width: PICTURE_WIDTH,
    height: AXIS + Math.max(1, layers.length) * LANE_HEIGHT,
    lanes: layers.map((layer) => ({ y: laneY(layer), height: LANE_HEIGHT, label: `Layer ${layer}`, labelY: laneY(layer) + LANE_HEIGHT / 2 + 4 })),
    bars,
    days,
    ...(nowMs >= fromMs && nowMs < toMs ? { now: { x: round(xOf(nowMs)) } } : {}),
    axisY: AXIS,
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
