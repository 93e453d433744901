// The browser's entry of the ssr project: the prerendered page is hydrated.
import { bootstrapApplication, provideClientHydration, withEventReplay } from "@angular/platform-browser";
import { mergeApplicationConfig } from "@angular/core";
import { appConfig } from "./app/app.config";
import { App } from "./app/app";

bootstrapApplication(App, mergeApplicationConfig(appConfig, { providers: [provideClientHydration(withEventReplay())] })).catch((err) =>
  console.error(err),
);
