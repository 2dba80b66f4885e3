// The colour theme and the time zone, enhanced (the forms work without this script):
// - the header's theme switcher applies a choice at once and saves it in the background (POST /account/theme);
// - the account page offers the browser's zone while the profile is still UTC ("Use my browser's zone: Europe/Riga").

function setupTheme(form) {
  const select = form.querySelector('select[name="theme"]');
  form.querySelector('button[type="submit"]').hidden = true;
  select.addEventListener('change', async () => {
    document.documentElement.dataset.theme = select.value;
    await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), redirect: 'manual' });
  });
}

function setupZone(select) {
  const button = document.getElementById('use-browser-tz');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offered = [...select.options].some((option) => option.value === zone);
  if (select.dataset.profileTz !== 'UTC' || !zone || zone === 'UTC' || !offered) return;
  button.textContent = `Use my browser's zone: ${zone}`;
  button.hidden = false;
  button.addEventListener('click', () => {
    select.value = zone;
    select.focus();
  });
}

const themeForm = document.querySelector('form.theme-switch');
if (themeForm) setupTheme(themeForm);
const zoneSelect = document.getElementById('profile-tz');
if (zoneSelect) setupZone(zoneSelect);
