// Security keys and passkeys (server/pages/account/security-keys.ts): a form marked data-webauthn asks the server for the
// ceremony's options, lets the browser talk to the authenticator, and posts its answer in the form's "answer" field.
import { startAuthentication, startRegistration, browserSupportsWebAuthn } from '/static/vendor/simplewebauthn/index.js';

const OPTIONS = { register: '/account/two-factor/webauthn/options', 'sign-in': '/signin/two-factor/webauthn' };

for (const form of document.querySelectorAll('form[data-webauthn]')) {
  const kind = form.dataset.webauthn;
  const problem = form.querySelector('#webauthn-script-error');
  const show = (text) => {
    problem.textContent = text;
    problem.hidden = false;
  };
  if (!browserSupportsWebAuthn()) show('This browser cannot use security keys.');
  form.addEventListener('submit', async (event) => {
    if (form.elements.answer.value !== '') return;
    event.preventDefault();
    try {
      const res = await fetch(OPTIONS[kind], { method: 'POST', headers: { 'x-csrf-token': form.elements._csrf.value } });
      // Sudo mode lapsed: the server names the page that confirms the password, and brings the person back here.
      if (res.status === 401) return void window.location.assign((await res.json()).confirm);
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
      const optionsJSON = await res.json();
      const answer = kind === 'register' ? await startRegistration({ optionsJSON }) : await startAuthentication({ optionsJSON });
      form.elements.answer.value = JSON.stringify(answer);
      form.submit();
    } catch (err) {
      show(`The security key did not answer: ${err.message}`);
    }
  });
}
