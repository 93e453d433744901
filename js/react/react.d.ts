// Types for modelcontext/react: React hooks over modelcontext (React >= 18).
import type { ResourceDescriptor, ResourceInfo } from "modelcontext";

/**
 * The fields useResource registers: a resource descriptor without get,
 * subscribe and complete, which the hook supplies.
 */
export type ResourceFields = Omit<ResourceDescriptor, "get" | "subscribe" | "complete" | "uriTemplate">;

/**
 * Registers descriptor while the component is mounted, with a get that
 * returns the latest committed value. Each commit whose value is not
 * Object.is the last pushes it (the module then de-duplicates by JSON). A
 * change of a descriptor field (compared by value, so an inline object is
 * fine) re-registers; unmounting unregisters. On the server it does nothing.
 * @throws TypeError at render, naming the field and the uri, when the
 * descriptor is invalid (the same error as registerResource).
 */
export declare function useResource<T>(descriptor: ResourceFields, value: T): void;

/**
 * The latest value of uri: read at mount, then each resourceupdated;
 * undefined until known (and on the server).
 */
export declare function useResourceValue<T = unknown>(uri: string): T | undefined;

/** getResources(), re-rendered on each resourcelistchanged; [] on the server. */
export declare function useResources(): ResourceInfo[];
