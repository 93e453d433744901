"use client";

import { useState } from "react";
import { useResource } from "modelcontext/react";

// The same as clicks.tsx, with modelcontext/react's hook.
export default function Likes() {
  const [likes, setLikes] = useState(0);
  useResource({ uri: "state://likes", name: "likes" }, likes);
  return (
    <button id="like" onClick={() => setLikes((n) => n + 1)}>
      Liked {likes} times
    </button>
  );
}
