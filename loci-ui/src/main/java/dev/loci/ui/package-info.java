/**
 * The web UI served by {@code loci serve} at {@code /ui}: server-rendered pages (jte templates,
 * precompiled and type-checked at build time) with htmx for partial updates, every asset served by
 * Loci itself. {@link dev.loci.ui.LociUi} mounts it on a {@link dev.loci.server.LociServer}.
 */
package dev.loci.ui;
