import { type BootstrapContext, bootstrapApplication, provideClientHydration, withEventReplay } from "@angular/platform-browser";
import { mergeApplicationConfig } from "@angular/core";
import { provideServerRendering, withRoutes } from "@angular/ssr";
import { appConfig } from "./app/app.config";
import { App } from "./app/app";
import { serverRoutes } from "./app/app.routes.server";

const config = mergeApplicationConfig(appConfig, {
  providers: [provideClientHydration(withEventReplay()), provideServerRendering(withRoutes(serverRoutes))],
});

export default (context: BootstrapContext) => bootstrapApplication(App, config, context);
