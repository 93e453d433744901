import adapter from "@sveltejs/adapter-node";

// adapter-node: `vite build` writes build/, a Node.js server (node build).
export default { kit: { adapter: adapter() } };
