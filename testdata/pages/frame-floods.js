// frame-floods.js: what a hostile frame sends the page that connected it
// (issue #45), as commands of frame-child.html's hand mode, for
// wasm/e2e/frames_floods_test.go. Each flood runs arg.ms in 10 ms ticks,
// then ends in a sentinel and reports 'flood-done' with what it sent. The
// sentinel of the list floods is a list of frame://end alone: once the
// parent lists it, it has applied the frame's latest list. That of the
// updates flood is the value 'end', answered to the reads held and notified
// once more.
window.frameFloods = function (hand, commands) {
  'use strict';
  const run = (flood, arg, tick, end) => {
    const until = performance.now() + arg.ms;
    let ticks = 0;
    const timer = setInterval(() => {
      if (performance.now() < until) {
        tick(++ticks);
        return;
      }
      clearInterval(timer);
      end();
      hand.report({ op: 'flood-done', flood, ticks, lists: hand.counts.list, reads: hand.counts.read });
    }, 10);
    return {};
  };
  const endList = () => {
    hand.resources = [{ uri: 'frame://end', name: 'end' }];
    hand.templates = [];
    hand.listChanged();
  };
  const entries = (n, f) => Array.from({ length: n }, (_, i) => f(i));

  // big: every list answers 100,000 resources; a list change every tick.
  commands.big = (arg) => {
    hand.resources = entries(100000, (i) => ({ uri: 'frame://big/' + i, name: 'big ' + i }));
    return run('big', arg, () => hand.listChanged(), endList);
  };
  // reorder: 2,000 resources, shuffled every tick (a fixed sequence).
  commands.reorder = (arg) => {
    hand.resources = entries(2000, (i) => ({ uri: 'frame://r/' + i, name: 'r ' + i, description: 'entry ' + i }));
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    return run('reorder', arg, () => {
      const r = hand.resources;
      for (let i = r.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [r[i], r[j]] = [r[j], r[i]];
      }
      hand.listChanged();
    }, endList);
  };
  // invalid: every tick, 2,000 entries with new uris and no name.
  commands.invalid = (arg) => {
    let n = 0;
    return run('invalid', arg, () => {
      hand.resources = entries(2000, () => ({ uri: 'frame://bad/' + n++ }));
      hand.listChanged();
    }, endList);
  };
  // updates: arg.per notifications that frame://ok changed every tick, and
  // no read answered until the end.
  commands.updates = (arg) => {
    hand.hold = true;
    return run('updates', arg, () => {
      for (let i = 0; i < arg.per; i++) hand.updated('frame://ok');
    }, () => {
      hand.value = 'end';
      hand.hold = false;
      hand.held.splice(0).forEach(hand.readAnswer);
      hand.updated('frame://ok');
    });
  };
};
