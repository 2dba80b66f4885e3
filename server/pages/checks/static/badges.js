// A convenience of the badges page (it works without it): a Copy button for the badge URL.

const copy = document.querySelector('#copy-url');
if (copy && navigator.clipboard) {
  const status = document.querySelector('#copy-status');
  copy.hidden = false;
  copy.addEventListener('click', async () => {
    const input = document.getElementById(copy.dataset.copy);
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      status.textContent = 'Copied.';
    } catch {
      status.textContent = 'Select the URL and copy it.';
    }
  });
}
