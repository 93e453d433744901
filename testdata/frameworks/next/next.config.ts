import type { NextConfig } from "next";

// The tests build with Turbopack and with webpack side by side, each into its
// own folder (NEXT_DIST_DIR); modelcontext itself needs no configuration.
const nextConfig: NextConfig = {
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
