import type { TestProject } from "vitest/node";
import { provideTestDatabase } from "./database";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    embeddedDb: boolean;
  }
}

export default async function setup(project: TestProject) {
  const db = await provideTestDatabase();
  project.provide("databaseUrl", db.url);
  project.provide("embeddedDb", db.embedded);
  return () => db.close();
}
