/**
 * The MCP server's parts: tool specifications and the runner that checks roles and namespaces and
 * turns Loci's exceptions into tool errors, argument parsing, the mapping of the reference memory
 * server's entities and relations onto memory-graph nodes and edges, and the HTTP transport.
 */
package dev.loci.mcp.internal;
