// Progressive enhancement of the server-rendered pages: every page works without this script.
// - check editor: show the fields of the chosen kind; preview a cron or OnCalendar schedule's next runs as it is
//   typed (GET <project>/cron-preview, the schedule engine the deadlines use), with the API's message under the field;
// - check list: live updates, toggles and Copy buttons are in list.js;
// - integrations: show the settings fields of the chosen kind at once (without the script, "Choose" reloads the form).

const PREVIEW_DELAY_MS = 250;

function setupEditor(form) {
  const kinds = form.querySelectorAll('input[name="kind"]');
  const showKind = () => {
    const chosen = form.querySelector('input[name="kind"]:checked');
    form.dataset.kind = chosen ? chosen.value : 'simple';
  };
  kinds.forEach((radio) => radio.addEventListener('change', showKind));
  showKind();

  const cron = form.querySelector('#schedule');
  // The maintenance editor shares this setup and has no OnCalendar field.
  const calendar = form.querySelector('#oncalendar');
  const tz = form.querySelector('#tz');
  const list = form.querySelector('#preview');
  let timer = 0;
  let asked = 0;
  const refresh = async () => {
    const ticket = ++asked;
    const onCalendar = form.dataset.kind === 'oncalendar';
    const schedule = onCalendar ? calendar : cron;
    const query = new URLSearchParams({ schedule: schedule.value, tz: tz.value });
    const res = await fetch(`${form.dataset.preview}?${query}`, { headers: { accept: 'application/json' } });
    if (ticket !== asked || !res.ok) return;
    const preview = await res.json();
    const errors = { schedule: form.querySelector(onCalendar ? '#oncalendar-error' : '#schedule-error'), tz: form.querySelector('#tz-error') };
    const other = form.querySelector(onCalendar ? '#schedule-error' : '#oncalendar-error');
    if (other) other.textContent = '';
    (onCalendar ? cron : calendar)?.removeAttribute('aria-invalid');
    errors.schedule.textContent = preview.field === 'schedule' ? preview.error : '';
    errors.tz.textContent = preview.field === 'tz' ? preview.error : '';
    schedule.toggleAttribute('aria-invalid', preview.field === 'schedule');
    tz.toggleAttribute('aria-invalid', preview.field === 'tz');
    list.replaceChildren(
      ...(preview.runs ?? []).map((run) => {
        const item = document.createElement('li');
        const time = document.createElement('time');
        time.dateTime = run.at;
        time.textContent = run.local;
        item.append(time);
        return item;
      }),
    );
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh().catch(() => undefined), PREVIEW_DELAY_MS);
  };
  cron.addEventListener('input', later);
  calendar?.addEventListener('input', later);
  tz.addEventListener('input', later);
  kinds.forEach((radio) => radio.addEventListener('change', later));
  if (form.dataset.kind === 'cron' || form.dataset.kind === 'oncalendar') later();
}

function setupChannelForm(form) {
  const kind = form.querySelector('#channel-kind');
  const show = () => {
    for (const fields of form.querySelectorAll('fieldset.kind-fields')) {
      const chosen = fields.dataset.kind === kind.value;
      fields.hidden = !chosen;
      fields.disabled = !chosen;
    }
  };
  form.querySelector('.choose-kind').hidden = true;
  kind.addEventListener('change', show);
  show();
}

const editor = document.querySelector('form.editor');
if (editor) setupEditor(editor);
const channelForm = document.querySelector('form.channel-form');
if (channelForm) setupChannelForm(channelForm);
