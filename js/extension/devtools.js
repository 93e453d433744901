// devtools.js: the extension's devtools_page. It only adds the Model
// Context panel (panel.html) to DevTools; the panel does the rest, for the
// inspected tab, and only while DevTools is open on it.
chrome.devtools.panels.create("Model Context", "", "panel.html");
