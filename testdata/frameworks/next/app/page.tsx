import Clicks from "./clicks";
import Likes from "./likes";
import Agent from "./agent";

// The page is prerendered at build time: the client components that import
// modelcontext are rendered on the server first, where there is no document.
export default function Page() {
  return (
    <main>
      <h1>modelcontext on Next.js</h1>
      <Clicks />
      <Likes />
      <Agent />
    </main>
  );
}
