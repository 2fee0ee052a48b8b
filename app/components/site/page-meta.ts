import type { MetaDescriptor, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";

type TMetaArgs = Parameters<MetaFunction>[0];

/** The title of a page that answered 404, translated by the root loader; null for any other page. */
function readNotFoundTitle({ error, matches }: Pick<TMetaArgs, "error" | "matches">): string | null {
  if (!isRouteErrorResponse(error) || error.status !== 404) return null;
  const root = matches.find((m) => m.id === "root")?.data as { notFoundTitle?: string } | undefined;
  return root?.notFoundTitle || null;
}

/** The root's meta: only a page that answered 404 gets a title here ("Page not found" in the reader's language). */
export function errorPageMeta(args: TMetaArgs): MetaDescriptor[] {
  const title = readNotFoundTitle(args);
  return title ? [{ title }, { name: "robots", content: "noindex" }] : [];
}

/**
 * A page title that keeps what the parent routes declared (the root's viewport tag above all):
 * in Remix v2 a route's meta replaces its parents' unless it carries them over. A page whose loader
 * answered 404 is titled as the not-found page.
 */
export function pageMeta(title: string): MetaFunction {
  return ({ matches, error }) => {
    const inherited: MetaDescriptor[] = matches.flatMap((m) => (m.meta ?? []) as MetaDescriptor[]).filter((d) => !("title" in d));
    return [...inherited, { title: readNotFoundTitle({ error, matches }) ?? title }];
  };
}
