// Progressive enhancement of the server-rendered pages: every page works without this script.
// - check editor: show the fields of the chosen kind; preview a cron or OnCalendar schedule's next runs as it is
//   typed (GET <project>/cron-preview, the schedule engine the deadlines use), with the API's message under the field;
// - check list: live updates, toggles and Copy buttons are in list.js;
// - check editor helpers: the slug follows the name until the slug is edited; the tag field completes its last tag;
//   the keyword fields show only while a keyword filter is ticked;
// - a form with `data-confirm` asks in a dialog and posts `confirm=yes` (without the script its POST shows a
//   confirmation page);
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
    const words = form.querySelector('#preview-words');
    if (words) {
      words.textContent = [preview.words, preview.nextIn && `next ${preview.nextIn}`].filter(Boolean).join(', ');
      words.hidden = words.textContent === '';
    }
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

// The rule of shared/domain/slug.ts (Django's slugify): ASCII letters, digits, _ and -, words joined by -.
const SLUG_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f ';
function slugify(name) {
  const ascii = name.normalize('NFKD').replace(/[\u0080-\uffff]/g, '');
  return ascii
    .toLowerCase()
    .replace(new RegExp(`[^\\w${SLUG_SPACE}-]`, 'g'), '')
    .replace(new RegExp(`[${SLUG_SPACE}-]+`, 'g'), '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

function setupSlug(form) {
  const name = form.querySelector('#name');
  const slug = form.querySelector('#slug');
  const hint = form.querySelector('#slug-hint');
  if (!name || !slug) return;
  // The slug follows the name while it is what the name suggests (empty for a new check) and has not been edited.
  let following = slug.value === slugify(name.value);
  slug.addEventListener('input', () => {
    following = false;
  });
  name.addEventListener('input', () => {
    if (following) slug.value = slugify(name.value);
    if (hint) hint.hidden = true;
  });
}

// A datalist completes a whole field: offer each tag after the tags already typed, so it completes the last one.
function setupTagCompletion(input) {
  const list = document.getElementById(input.getAttribute('list'));
  if (!list) return;
  const tags = [...list.options].map((option) => option.value);
  input.addEventListener('input', () => {
    const typed = input.value.split(/\s+/);
    const before = typed.slice(0, -1).filter(Boolean);
    const prefix = before.length ? `${before.join(' ')} ` : '';
    list.replaceChildren(
      ...tags
        .filter((tag) => !before.includes(tag))
        .map((tag) => {
          const option = document.createElement('option');
          option.value = prefix + tag;
          return option;
        }),
    );
  });
}

function setupKeywords(form) {
  const fields = form.querySelector('#keywords');
  const filters = form.querySelectorAll('input[name="filter_subject"], input[name="filter_body"], input[name="filter_http_body"]');
  if (!fields || filters.length === 0) return;
  const show = () => {
    fields.hidden = ![...filters].some((box) => box.checked);
  };
  filters.forEach((box) => box.addEventListener('change', show));
  show();
}

function setupConfirm(form) {
  form.addEventListener('submit', (event) => {
    if (form.querySelector('input[name="confirm"]')) return;
    if (!window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    const yes = document.createElement('input');
    yes.type = 'hidden';
    yes.name = 'confirm';
    yes.value = 'yes';
    form.append(yes);
  });
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
if (editor) {
  setupEditor(editor);
  setupSlug(editor);
  setupKeywords(editor);
}
document.querySelectorAll('input[list][name="tags"]').forEach(setupTagCompletion);
document.querySelectorAll('form[data-confirm]').forEach(setupConfirm);
const channelForm = document.querySelector('form.channel-form');
if (channelForm) setupChannelForm(channelForm);
