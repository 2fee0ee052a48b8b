import type { MetaDescriptor, MetaFunction } from "@remix-run/node";

/**
 * A page title that keeps what the parent routes declared (the root's viewport tag above all):
 * in Remix v2 a route's meta replaces its parents' unless it carries them over.
 */
export function pageMeta(title: string): MetaFunction {
  return ({ matches }) => {
    const inherited: MetaDescriptor[] = matches.flatMap((m) => (m.meta ?? []) as MetaDescriptor[]).filter((d) => !("title" in d));
    return [...inherited, { title }];
  };
}
