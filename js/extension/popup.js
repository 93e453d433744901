// popup.js: the sites where agents may look (the extension runs nothing
// anywhere else), the tabs there that serve resources, which one (if any)
// desktop agents are connected to, and the visitor's choices: one click
// allows the site of the tab in front, one exposes one tab, another stops.

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {any} s */
function render(s) {
  const list = $("tabs");
  list.replaceChildren();
  for (const t of s.tabs) {
    const li = document.createElement("li");
    li.dataset.url = t.url;
    const page = document.createElement("div");
    page.className = "page";
    const title = document.createElement("div");
    title.className = "title";
    title.textContent = t.title || t.url;
    const url = document.createElement("div");
    url.className = "url";
    url.textContent = t.url;
    page.append(title, url);
    li.append(page);
    if (s.exposed && s.exposed.tabId === t.tabId) {
      li.className = "exposed";
      const b = document.createElement("span");
      b.textContent = "exposed";
      li.append(b);
    } else {
      const b = document.createElement("button");
      b.className = "expose";
      b.textContent = s.exposed ? "Expose this one instead" : "Expose to desktop agents";
      b.addEventListener("click", () => send({ type: "expose", tabId: t.tabId }));
      li.append(b);
    }
    list.append(li);
  }
  $("empty").hidden = s.tabs.length > 0;
  const here = $("here");
  here.hidden = !s.here || s.sites.includes(s.here) || Boolean(s.refused);
  here.dataset.origin = s.here;
  $("here-site").textContent = s.here;
  const refused = $("refused");
  refused.hidden = !s.refused;
  refused.textContent = s.refused || "";
  const sites = $("sites");
  sites.replaceChildren();
  for (const origin of s.sites) {
    const li = document.createElement("li");
    li.dataset.origin = origin;
    const name = document.createElement("div");
    name.className = "page";
    name.textContent = origin;
    const b = document.createElement("button");
    b.className = "disallow";
    b.textContent = "Remove";
    b.addEventListener("click", () => send({ type: "disallow", origin }));
    li.append(name, b);
    sites.append(li);
  }
  $("no-sites").hidden = s.sites.length > 0;
  $("stop").hidden = !s.exposed;
  const status = $("status");
  if (!s.exposed) status.textContent = "No tab is exposed: desktop agents see nothing.";
  else if (!s.exposed.attached) status.textContent = "Exposing " + s.exposed.url + ": waiting for the page (and the relay).";
  else status.textContent = "Exposing " + s.exposed.url + " to desktop agents: " + s.sessions + " client session(s).";
  status.dataset.sessions = String(s.exposed && s.exposed.attached ? s.sessions : -1);
  const err = $("error");
  err.hidden = !(s.error || refusedHere);
  err.textContent = s.error ? "The relay: " + s.error : refusedHere;
}

// Why the browser did not grant the site the visitor clicked, until the
// next click.
let refusedHere = "";

/** @param {any} m */
async function send(m) {
  const s = await chrome.runtime.sendMessage(m);
  if (s) render(s); // undefined while the background starts again
}

$("stop").addEventListener("click", () => send({ type: "stop" }));
// Allowing a site asks the browser for that one site's permission, in the
// click itself (the browser asks only during a user gesture); the
// background then runs the content script there.
$("allow").addEventListener("click", () => {
  const origin = String($("here").dataset.origin);
  refusedHere = "";
  chrome.permissions.request({ origins: [origin + "/*"] }).then(
    (granted) => {
      if (granted) return send({ type: "allow", origin });
      refusedHere = `The browser did not grant the extension ${origin}: agents cannot see it.`;
      return send({ type: "state" });
    },
    (e) => {
      refusedHere = `The browser refused ${origin}: ${e && e.message ? e.message : e}`;
      return send({ type: "state" });
    },
  );
});
send({ type: "state" });
setInterval(() => send({ type: "state" }), 500);
