// Types for modelcontext: live resources on document.modelContext.
//
// `import { registerResource } from "modelcontext"` is typed by this file, and
// importing the package (even `import "modelcontext"`), or listing
// "modelcontext" in compilerOptions.types, also types `document.modelContext`.
// Without npm, list this file in your tsconfig's "files" or "include".
//
// With a WebMCP type package in the same program (@mcp-b/webmcp-types, or the
// global WebMCP namespace that @angular/core 22.2.5 and later ship, both of
// which make `document.modelContext` optional because browsers do not ship
// WebMCP yet), these members are added to its ModelContext, so that
// registerTool and registerResource are both typed on `document.modelContext`
// (there, `document.modelContext?.readResource(...)`, or the named imports).

/** MCP annotations of a resource. */
export interface ResourceAnnotations {
  /** Who the resource is for. */
  audience?: Array<"user" | "assistant">;
  /** How important the resource is, from 0 (least) to 1 (most). */
  priority?: number;
  /** When the resource last changed, as an ISO 8601 string (at least YYYY-MM-DD). */
  lastModified?: string;
}

/** An MCP icon of a resource or template, listed as given. */
export interface ResourceIcon {
  /** An https: or data: URL, or a path (resolved against the document); never javascript: or another scheme. */
  src: string;
  mimeType?: string;
  /** e.g. ["48x48"], or ["any"] for a scalable icon. */
  sizes?: string[];
  /** The background the icon is drawn for. */
  theme?: "light" | "dark";
}

/**
 * The context of a completion: the template's variables already chosen, by
 * name.
 */
export interface CompletionContext {
  arguments: Record<string, string>;
}

/**
 * A completer of a template's variable: the values an MCP client offers as
 * `value` is typed (at most 100 are sent). Called with the `complete` object
 * as `this`.
 */
export type Completer = (value: string, context: CompletionContext) => string[] | Promise<string[]>;

/** What a page passes to registerResource. Read once, at registration. */
export interface ResourceDescriptor<T = unknown> {
  /** Stable identity: a scheme, ":", and at least one more character, e.g. "state://cart". */
  uri: string;
  /** A descriptor has either a uri or a uriTemplate. */
  uriTemplate?: never;
  /** Short logical name, e.g. "cart". */
  name: string;
  title?: string;
  description?: string;
  /** Default "application/json". */
  mimeType?: string;
  annotations?: ResourceAnnotations;
  icons?: ResourceIcon[];
  /** Completion is for templates' variables. */
  complete?: never;
  /** Returns the current value; called on every read and every push. */
  get(): T | Promise<T>;
  /**
   * The push source: call onChange() (no arguments) whenever the state may
   * have changed, and return a teardown. Called once, at registration.
   * Without it the resource is pull-only.
   */
  subscribe?(onChange: () => void): () => void;
  /**
   * Milliseconds, default 0. Above 0, a burst of onChange calls (typing,
   * dragging) makes one push: get() is called settle ms after the last call,
   * and at the latest 4 × settle ms after the first. Reads stay live.
   */
  settle?: number;
}

/**
 * A URI template resource (RFC 6570 level 1): read on demand with the
 * percent-decoded values of its {name} expressions. Templates take no
 * subscribe: register the concrete uri to push it.
 */
export interface ResourceTemplateDescriptor<T = unknown> {
  /** e.g. "app://orders/{id}"; each {name} matches one non-empty run of characters without "/". */
  uriTemplate: string;
  /** A descriptor has either a uri or a uriTemplate. */
  uri?: never;
  name: string;
  title?: string;
  description?: string;
  /** Default "application/json". */
  mimeType?: string;
  annotations?: ResourceAnnotations;
  icons?: ResourceIcon[];
  /** Completers of the template's {variables}, by variable name, for MCP's completion/complete. */
  complete?: Record<string, Completer>;
  get(params: Record<string, string>): T | Promise<T>;
  /** Templates are read on demand: register the concrete uri to push it. */
  subscribe?: never;
}

/** A template as getResourceTemplates() lists it. */
export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  annotations?: ResourceAnnotations;
  icons?: ResourceIcon[];
  /**
   * A connected frame's template (connectFrame): the frame's origin. The page's own
   * templates have none.
   */
  origin?: string;
}

/** Options of connectFrame. */
export interface ConnectFrameOptions {
  /** The exact origin of the frame's page, e.g. "https://widget.example". */
  origin: string;
}

/** Options of serveMCP. */
export interface ServeMCPOptions {
  /** The MCP-B tab transport channel. Default "mcp-default"; one server per channel. */
  channel?: string;
  /** Origins whose messages are answered. Default [location.origin]; ["*"] allows any. */
  allowedOrigins?: string[];
  /** Resources per resources/list page. Default 50. */
  pageSize?: number;
  /** Largest value a read copies into a message, in bytes. Default 25 MiB. */
  maxBytes?: number;
  /**
   * Also serve the sub-channels "<channel>/<name>", each a client session of its own
   * (for the relay, wasm/cmd/relay); "mcp-session-close" on a sub-channel ends its
   * session. Default false; data-mcp-sessions on the script tag turns it on.
   */
  sessions?: boolean;
  /** With sessions, how many sub-channel sessions may exist at once. Default 16. */
  maxSessions?: number;
  /**
   * In a page loaded in an iframe, also answer the parent window, on MCP-B's iframe
   * channel "mcp-iframe", when its origin is one of these: exact origins like
   * "https://shop.example" (no path, no trailing slash), or ["*"] for any. stop()
   * ends both servers. data-mcp-parent="ORIGIN …" on the script tag does the same.
   */
  parent?: string[];
}

/** A running MCP server. */
export interface MCPServer {
  /** Stops the server: listen streams are answered, subscriptions end, mcp-server-stopped is posted. */
  stop(): void;
}

/** A resource as getResources() lists it. */
export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  annotations?: ResourceAnnotations;
  icons?: ResourceIcon[];
  /** False for pull-only resources and for those whose subscribe threw. */
  subscribable: boolean;
  /**
   * A connected frame's resource (connectFrame): the frame's origin, where what it
   * says comes from. The page's own resources have none.
   */
  origin?: string;
}

export interface ResourceUpdatedDetail<T = unknown> {
  uri: string;
  /** The very value get() returned. */
  value: T;
  /** The page's revision after this event. */
  revision: number;
}

export interface ResourceListChangedDetail {
  resources: ResourceInfo[];
  /** The page's revision after this event. */
  revision: number;
}

/** One RFC 6902 (JSON Patch) operation; paths are JSON Pointers (RFC 6901). */
export type JSONPatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };

/** What changesSince answers: the uris that changed since a revision, in list order. */
export type Changes =
  | {
      /** The revision now: pass it to the next changesSince. */
      revision: number;
      /** Listed at the revision and now, and pushed or replaced since. */
      updated: string[];
      /** Registered since and listed now. */
      added: string[];
      /** Listed at the revision, not now. */
      removed: string[];
      reset?: undefined;
    }
  | {
      revision: number;
      /** The revision is older than the module remembers: read everything again. */
      reset: true;
    };

/** Options of subscribeResource. */
export interface SubscribeOptions {
  /** Hand the handler an RFC 6902 patch from the value it was handed before. */
  patch?: boolean;
}

/** The third argument of a subscribeResource handler subscribed with {patch: true}. */
export interface PatchInfo {
  /** The page's revision after this push. */
  revision: number;
  /**
   * Turns the previous value this subscription was handed (for its first
   * call, the last value dispatched before it subscribed) into this one, on
   * their JSON forms; null when there is no previous value, either is not
   * plain JSON data, or the patch would be longer than the value.
   */
  patch: JSONPatchOperation[] | null;
}

export interface ModelContextResourcesEventMap {
  resourceupdated: CustomEvent<ResourceUpdatedDetail>;
  resourcelistchanged: CustomEvent<ResourceListChangedDetail>;
}

/** The methods and the ready Promise the module adds to document.modelContext. */
export interface ModelContextResourceMembers {
  /**
   * Registers (or replaces, keeping its place) the resource with this uri.
   * Returns its unregister function, which is idempotent and never removes a
   * later registration of the same uri. Aborting options.signal unregisters
   * too; an already-aborted signal registers nothing.
   * @throws TypeError naming the field and the uri when the descriptor (or options.signal) is invalid.
   */
  registerResource<T>(descriptor: ResourceDescriptor<T> | ResourceTemplateDescriptor<T>, options?: RegisterResourceOptions): () => void;
  /** A fresh array of the registered resources, in registration order. */
  getResources(): ResourceInfo[];
  /** A fresh array of the registered URI templates, in registration order. */
  getResourceTemplates(): ResourceTemplateInfo[];
  /**
   * Serves the resources as an MCP server on window.postMessage (the MCP-B
   * tab transport). Only the page's own window and allowed origins are answered.
   * @throws TypeError naming the bad option.
   */
  serveMCP(options?: ServeMCPOptions): MCPServer;
  /**
   * Registers read-only list_resources, read_resource and read_changes tools with
   * document.modelContext.registerTool (the browser's own WebMCP or a
   * polyfill), and returns a function that removes them. Called again while
   * they are registered, it returns that same function; after removal it
   * registers them again. On the browser's WebMCP read_resource answers the
   * value itself ({uri, mimeType, blob} for binary values, {error} on a
   * failure); on a polyfill, MCP CallToolResults.
   * @throws Error when registerTool does not exist.
   */
  registerResourceTools(): () => void;
  /**
   * Registers the page itself as a resource whose value is
   * {url: location.href, title: document.title}, pushed on every navigation
   * (pushState, replaceState, back and forward, hash changes, Navigation API)
   * and title change. Returns its unregister function.
   */
  registerPageResource(options?: { uri?: string; name?: string }): () => void;
  /**
   * Lists the resources and templates of the page in iframe (which serves
   * this page with serveMCP({parent}), from exactly origin) after the page's
   * own, in the frame's order: reads go through to the frame, its pushes and
   * list changes are the page's. They leave the list (one
   * resourcelistchanged) when the frame navigates (the new document is
   * connected), stops, is removed, or the returned function runs. A uri the
   * page registered stays the page's. Starts the module.
   * @throws TypeError naming "iframe" (not an HTMLIFrameElement) or "origin"
   * (not an exact origin such as "https://widget.example").
   */
  connectFrame(iframe: HTMLIFrameElement, options: ConnectFrameOptions): () => void;
  /**
   * Calls get() now and resolves with its value.
   * Rejects with a DOMException named "NotFoundError" for an unknown uri, and
   * with get()'s own error when it throws or rejects.
   */
  readResource<T = unknown>(uri: string): Promise<T>;
  /**
   * Calls handler(value, uri) for every push of uri that survives
   * de-duplication. Survives a replacement; ends with the unregistration.
   * @throws DOMException named "NotFoundError" for an unknown uri.
   */
  subscribeResource<T = unknown>(uri: string, handler: (value: T, uri: string) => void): () => void;
  /**
   * As above, and the handler is also handed the page's revision and an
   * RFC 6902 patch from the value it was handed before (or null).
   * @throws TypeError naming "options" or "options.patch" when they are invalid.
   */
  subscribeResource<T = unknown>(uri: string, handler: (value: T, uri: string, info: PatchInfo) => void, options: SubscribeOptions & { patch: true }): () => void;
  subscribeResource<T = unknown>(uri: string, handler: (value: T, uri: string, info?: PatchInfo) => void, options?: SubscribeOptions): () => void;
  /**
   * The page's revision: 0 until something changed, then one more for each
   * resourceupdated and resourcelistchanged dispatched (heard or not).
   */
  readonly revision: number;
  /**
   * What changed since revision (a revision this object gave): the uris
   * updated, added and removed since, calling no get(); or reset when the
   * module no longer remembers that far back. Rejects with a TypeError
   * (not an integer) or RangeError (below 0, or above the current revision)
   * naming "revision".
   */
  changesSince(revision: number): Promise<Changes>;
  /**
   * Resolves once Go has taken over; rejects with an Error that says what to
   * fix. Awaiting it (or calling then, catch or finally) starts the module
   * when it boots lazily.
   */
  readonly ready: Promise<void>;
  /** Runs for each resourceupdated event, as a listener added when it was first set; null clears it. */
  onresourceupdated: ((this: ModelContextResources, ev: CustomEvent<ResourceUpdatedDetail>) => unknown) | null;
  /** Runs for each resourcelistchanged event, as a listener added when it was first set; null clears it. */
  onresourcelistchanged: ((this: ModelContextResources, ev: CustomEvent<ResourceListChangedDetail>) => unknown) | null;
}

/** Options of registerResource, as registerTool has them. */
export interface RegisterResourceOptions {
  /** Aborting it unregisters the resource, as calling the returned function does. */
  signal?: AbortSignal;
}

/** document.modelContext as the module installs it: its members and its two events. */
export interface ModelContextResources extends EventTarget, ModelContextResourceMembers {
  addEventListener<K extends keyof ModelContextResourcesEventMap>(
    type: K,
    listener: (this: ModelContextResources, ev: ModelContextResourcesEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ModelContextResourcesEventMap>(
    type: K,
    listener: (this: ModelContextResources, ev: ModelContextResourcesEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
}

/**
 * A WebMCP tool, as far as this file types it. For WebMCP's own types (and
 * its other members), add @mcp-b/webmcp-types to the program.
 */
export interface WebMCPTool {
  name: string;
  description: string;
  inputSchema?: object;
  annotations?: object;
  execute(input: Record<string, unknown>): unknown;
}

/** What a browser with WebMCP, or a WebMCP polyfill, adds to document.modelContext; absent elsewhere. */
export interface ModelContextWebMCP {
  registerTool?(tool: WebMCPTool, options?: { signal?: AbortSignal }): unknown;
}

/** The page's document.modelContext, for a program without a WebMCP type package. */
interface DocumentModelContext {
  readonly modelContext: ModelContextResources & ModelContextWebMCP;
}

/**
 * Whether a WebMCP type package declares document.modelContext already: such
 * packages (like @mcp-b/webmcp-types) also declare the global ModelContext.
 */
type WebMCPTypesPresent = typeof globalThis extends { ModelContext: unknown } ? true : false;

/**
 * Whether Angular's WebMCP types are in the program: @angular/core 22.2.5 and
 * later declare document.modelContext (optional) as their global
 * WebMCP.ModelContext, whose getTools tells it from the one this file opens.
 */
type AngularWebMCPPresent = WebMCP.ModelContext extends { getTools: unknown } ? true : false;

/** What this file adds to Document: document.modelContext, unless a WebMCP type package declares it. */
type ModelContextDocument = WebMCPTypesPresent extends true ? {} : AngularWebMCPPresent extends true ? {} : DocumentModelContext;

declare global {
  // document.modelContext is declared here only when no WebMCP type package
  // declares it: two declarations of one property must agree exactly.
  interface Document extends ModelContextDocument {}
  /** Set to true (at any time) to turn debug logging on. */
  // eslint-disable-next-line no-var
  var __MODELCONTEXT_DEBUG__: boolean | undefined;
  /** Where the .wasm is, when it is not beside the script or the module; set before they load. */
  // eslint-disable-next-line no-var
  var __MODELCONTEXT_WASM_URL__: string | undefined;
  /**
   * Where the classic script's runtime (modelcontext-runtime.js) is, when it
   * is not beside the script (the tag's data-runtime); set before it loads.
   */
  // eslint-disable-next-line no-var
  var __MODELCONTEXT_RUNTIME_URL__: string | undefined;
  /**
   * When the ES module starts (the script tag's data-boot): "lazy" (the
   * default) at the first consumer contact, "eager" at once, "idle" in idle
   * time after the load event. Set before the module is imported.
   */
  // eslint-disable-next-line no-var
  var __MODELCONTEXT_BOOT__: "lazy" | "eager" | "idle" | undefined;
  // With Angular's WebMCP types, their WebMCP.ModelContext (the type of
  // document.modelContext there) gets these members. Without them, this
  // declares an interface nothing uses.
  namespace WebMCP {
    interface ModelContext extends ModelContextResourceMembers {
      addEventListener<K extends keyof ModelContextResourcesEventMap>(
        type: K,
        listener: (this: ModelContext, ev: ModelContextResourcesEventMap[K]) => unknown,
        options?: boolean | AddEventListenerOptions,
      ): void;
      addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
      removeEventListener<K extends keyof ModelContextResourcesEventMap>(
        type: K,
        listener: (this: ModelContext, ev: ModelContextResourcesEventMap[K]) => unknown,
        options?: boolean | EventListenerOptions,
      ): void;
      removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
    }
  }
}

// With @mcp-b/webmcp-types, its ModelContext (the type of its
// document.modelContext) gets these members. Without it, this changes nothing.
declare module "@mcp-b/webmcp-types" {
  interface ModelContext extends ModelContextResourceMembers {
    addEventListener<K extends keyof ModelContextResourcesEventMap>(
      type: K,
      listener: (this: ModelContext, ev: ModelContextResourcesEventMap[K]) => unknown,
      options?: boolean | AddEventListenerOptions,
    ): void;
    addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
    removeEventListener<K extends keyof ModelContextResourcesEventMap>(
      type: K,
      listener: (this: ModelContext, ev: ModelContextResourcesEventMap[K]) => unknown,
      options?: boolean | EventListenerOptions,
    ): void;
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
  }
}

// The ES module's named exports: document.modelContext's own members.

/**
 * Registers (or replaces, keeping its place) the resource with this uri, or
 * the URI template with this uriTemplate. Returns its unregister function.
 * @throws TypeError naming the field and the uri when the descriptor is invalid.
 */
export declare const registerResource: ModelContextResources["registerResource"];
/** A fresh array of the registered resources, in registration order. */
export declare const getResources: ModelContextResources["getResources"];
/** A fresh array of the registered URI templates, in registration order. */
export declare const getResourceTemplates: ModelContextResources["getResourceTemplates"];
/** Calls get() now and resolves with its value. */
export declare const readResource: ModelContextResources["readResource"];
/** Calls handler(value, uri) for every push of uri that survives de-duplication. */
export declare const subscribeResource: ModelContextResources["subscribeResource"];
/** Serves the resources as an MCP server on window.postMessage. */
export declare const serveMCP: ModelContextResources["serveMCP"];
/** Registers read-only list_resources and read_resource tools with registerTool. */
export declare const registerResourceTools: ModelContextResources["registerResourceTools"];
/** Registers the page itself ({url, title}) as a resource, pushed on every navigation. */
export declare const registerPageResource: ModelContextResources["registerPageResource"];
/** Lists the resources of the page in an iframe after the page's own, until the returned function runs. */
export declare const connectFrame: ModelContextResources["connectFrame"];
/** Resolves once Go has taken over; rejects with an Error that says what to fix. */
export declare const ready: ModelContextResources["ready"];
/** document.modelContext.changesSince. */
export declare const changesSince: ModelContextResources["changesSince"];

// The ES module's exports for framework bindings (modelcontext/react,
// modelcontext/vue, or one of your own), not members of document.modelContext.

/**
 * The fields of a descriptor a binding registers (uri, name, title,
 * description, mimeType, annotations, icons, settle), those left undefined
 * out; a descriptor that is not an object comes back as it is.
 */
export declare function resourceFields<T>(descriptor: T): T extends object ? Partial<Omit<ResourceDescriptor, "get" | "subscribe">> : T;
/** A string that is the same for two descriptors' fields with the same values (their JSON). */
export declare function resourceKey(fields: unknown): string;
/**
 * Throws the TypeError registerResource would throw for this descriptor
 * (naming the field and the uri), get and subscribe aside; registers nothing.
 */
export declare function checkResource(descriptor: unknown): void;
/**
 * Calls onValue with the value of uri once it is listed (now or later),
 * unless a push comes first, then with each push of it; unlike
 * subscribeResource it takes a uri that is not registered yet and follows it
 * across unregistration. Returns the function that stops it.
 */
export declare function followResource(uri: string, onValue: (value: unknown) => void): () => void;
