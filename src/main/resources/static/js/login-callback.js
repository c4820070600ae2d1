// Landing page of the login popup: hands the authorization code (or the error) to the page that opened the popup,
// on this origin only, and closes. The code is useless without that page's PKCE verifier, which never left it.
// The issuer's end-session endpoint comes back here too after a log-out: no code, nothing waits for it, it closes.
const params = new URLSearchParams(location.search);
const answer = { type: 'poimen-login', code: params.get('code'), state: params.get('state'), error: params.get('error') };
if (window.opener) {
  window.opener.postMessage(answer, location.origin);
  window.close();
} else {
  document.getElementById('message').textContent = 'This page finishes a log-in started from the poimen memory UI; open the UI and log in there.';
}
