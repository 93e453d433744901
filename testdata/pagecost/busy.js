// The workload of busy.html: window.busy(rounds) rebuilds a 200-row table,
// prepends to and trims a 100-item feed, and changes 50 cells' text each
// round, and every fifth round also the two declarative elements' content;
// it awaits a task (a message) between rounds, so that the DOM's mutation observers
// (the module's, with data-declarative) run inside the time measured. It
// resolves with the milliseconds the rounds took.
(function () {
  const table = document.getElementById('table');
  const feed = document.getElementById('feed');
  const count = document.getElementById('count');
  const state = document.getElementById('state');
  // A task of its own (a message, which no timer clamping delays).
  const channel = new MessageChannel();
  const task = () => new Promise((r) => {
    channel.port1.onmessage = () => r();
    channel.port2.postMessage(0);
  });
  function round(i) {
    const rows = [];
    for (let r = 0; r < 200; r++) rows.push('<tr><td>' + r + '</td><td>' + ((r * 7 + i) % 13) + '</td><td>team ' + r + '</td></tr>');
    table.innerHTML = rows.join('');
    for (let k = 0; k < 5; k++) {
      const li = document.createElement('li');
      li.textContent = 'event ' + i + '.' + k;
      feed.prepend(li);
    }
    while (feed.children.length > 100) feed.lastElementChild.remove();
    for (let c = 0; c < 50; c++) table.rows[c].cells[1].textContent = String(i + c);
    if (i % 5 === 0) {
      count.textContent = String(i);
      state.textContent = JSON.stringify({ n: i });
    }
  }
  window.busy = async (rounds) => {
    await task();
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      round(i);
      await task();
    }
    return performance.now() - t0;
  };
})();
