/**
 * Loci's MCP server: Loci's own tools ({@code remember}, {@code recall}, {@code context}, {@code
 * history}, {@code forget}, {@code ingest}, the review tools), the nine tools of the reference MCP
 * memory server stored as memory-graph nodes and edges, and node resources, over stdio ({@link
 * dev.loci.mcp.LociMcpServer#serveStdio}) and over streamable HTTP at {@code /mcp} inside the HTTP
 * server ({@link dev.loci.mcp.LociMcpServer#routes()}), where the server's credentials, roles and
 * namespace scopes bound every call. Tools translate to the layer facades and decide nothing.
 */
package dev.loci.mcp;
