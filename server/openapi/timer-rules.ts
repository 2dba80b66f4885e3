/** JSON Schemas of the timed alerting rules' members (docs/alerting-rules.md, "Timed rules"): in the check (only when set), its payload, and the notification log. */

const MAX_SECONDS = 31_536_000;

/** Timed rule members of the check JSON; each present only when the rule is set. */
export const timerRuleFields = {
  notify_late: {
    const: true,
    description: 'Alerting rule: a `late` alert to every channel when the check enters its grace period (no flip is recorded). Present only when on.',
  },
  repeat_every: {
    type: 'integer', minimum: 300, maximum: MAX_SECONDS,
    description: 'Alerting rule, seconds: while the check stays down, its channels are alerted again at this interval ("reminder n") until it recovers or is paused.',
  },
  maintenance: { const: true, description: 'Present only while a maintenance window (`/maintenance/`) covers the check: its alerts are held back.' },
};

/** Timed rule members of the create/update payload. */
export const timerRuleInputFields = {
  notify_late: { type: 'boolean', description: 'Alerting rule: a `late` alert when the check enters its grace period; false turns it off.' },
  repeat_every: { ...timerRuleFields.repeat_every, type: ['integer', 'null'], description: `${timerRuleFields.repeat_every.description} \`null\` turns it off.` },
};

/** The notification log's `reason` member. */
export const timerReasonField = {
  type: 'string',
  description: 'Why an alerting rule sent or held back the alert: `late`, `reminder n`, `in maintenance`, `maintenance ended`; only when a rule played a part.',
};
