/** Words for the marks an alerting rule leaves on a flip (docs/alerting-rules.md), as the notification log shows them. */
import type { FlipMark } from '../models/check-rules.js';

const WORDS: Record<FlipMark, string> = {
  threshold: 'threshold reached',
  too_fast: 'ran too fast',
  too_often: 'ran too often',
  parent_down: 'parent down',
  released: 'sent when its parents were up again',
};

/** `ran too fast; threshold reached`: each mark in words, in the order recorded; `""` when none. */
export function describeMarks(marks: readonly FlipMark[] | undefined): string {
  return (marks ?? []).map((mark) => WORDS[mark]).join('; ');
}
