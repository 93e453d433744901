// Page code on declarative.html, after the module's tag: it registers
// shop://claimed, which markup parsed later also names (code wins).
document.modelContext.registerResource({ uri: 'shop://claimed', name: 'claimed', get: () => 'from code' });
