/**
 * The Loci HTTP server: {@link dev.loci.server.LociServer} serves API v1 over one data directory;
 * {@link dev.loci.server.ConfigFile} reads {@code loci.toml} into a {@link
 * dev.loci.server.ServerConfig} (credentials, allowlist, trusted proxies, body caps, rate limit)
 * and creates tokens. Layers add their routes through {@link dev.loci.server.spi}.
 */
package dev.loci.server;
