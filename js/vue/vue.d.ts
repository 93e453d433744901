// Types for modelcontext/vue: Vue composables over modelcontext (Vue >= 3.3).
import type { MaybeRefOrGetter, ShallowRef } from "vue";
import type { ResourceDescriptor, ResourceInfo } from "modelcontext";

/**
 * The fields useResource registers: a resource descriptor without get,
 * subscribe and complete, which the composable supplies.
 */
export type ResourceFields = Omit<ResourceDescriptor, "get" | "subscribe" | "complete" | "uriTemplate">;

/**
 * Registers descriptor while the calling effect scope lives (its disposal
 * unregisters). Its value is source's (a ref, a reactive object or a
 * getter, unwrapped with toRaw); each change of source (watched deeply)
 * pushes it once, after the DOM update. A descriptor given as a ref or a
 * getter re-registers when one of its fields changes.
 * @throws TypeError, naming the field and the uri, when the descriptor is
 * invalid (the same error as registerResource).
 */
export declare function useResource<T>(descriptor: MaybeRefOrGetter<ResourceFields>, source: MaybeRefOrGetter<T> | (T & object)): void;

/**
 * A ref of the latest value of uri: read at once (or once it is listed),
 * then each resourceupdated; undefined until known.
 */
export declare function useResourceValue<T = unknown>(uri: string): Readonly<ShallowRef<T | undefined>>;

/**
 * A ref of getResources(), read again on each resourcelistchanged while the
 * calling effect scope lives; [] where the module cannot answer.
 */
export declare function useResources(): Readonly<ShallowRef<ResourceInfo[]>>;
