import { Component } from "@angular/core";
import { RouterOutlet } from "@angular/router";

@Component({
  selector: "app-root",
  imports: [RouterOutlet],
  template: `<h1>modelcontext on Angular</h1><router-outlet />`,
})
export class App {}
