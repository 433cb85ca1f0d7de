package dev.loci.cli;

import dev.loci.Loci;
import dev.loci.mcp.LociMcpServer;
import dev.loci.recall.CachingEmbeddingProvider;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;

/**
 * {@code loci mcp}: Loci's MCP tools for one client over stdio, until the client closes stdin. Only
 * JSON-RPC goes to stdout; anything else the process would print goes to stderr.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve Loci's MCP tools over stdio (for Claude Desktop, Cursor and other MCP clients).",
      "Only JSON-RPC is written to stdout; notes and logs go to stderr. Runs until stdin closes."
          + " Tools act in --ns unless a call names another namespace."
    })
final class McpCommand extends LociCommand {
  @Mixin TraceCommands.NamespaceOption ns;

  @Mixin RecallCommands.EmbeddingOption embedding;

  @Override
  public Integer call() throws InterruptedException {
    embedding.check();
    PrintStream stdout = main().outStream();
    PrintStream previous = System.out;
    System.setOut(main().errStream()); // a stray print must never corrupt the JSON-RPC stream
    try (Loci loci = open();
        CachingEmbeddingProvider embeddings = embedding.open(loci.dataDir());
        LociMcpServer mcp = LociMcpServer.create(loci, embeddings, ns.ns)) {
      mcp.serveStdio(main().stdin(), stdout); // the server's ingest embedder stops before the rest

    } finally {
      System.setOut(previous);
      stdout.flush();
    }
    return ExitCode.OK;
  }
}
