package dev.loci.mcp.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.recall.IngestReport;
import dev.loci.recall.RecallWire;
import java.util.ArrayList;
import java.util.List;

/**
 * The ingestion-wave trigger of the {@code ingest} tool: after the documents are ingested, each
 * namespace they went into whose {@value GovernedMemory#EXTRACT_ON_INGEST} setting is on gets one
 * extraction wave over the chunks ingested from them, run by {@link GovernedRecall#afterIngest} as
 * {@code POST ingest} and {@code loci ingest} run it, and the reply lists the waves as {@code
 * extraction_waves} beside the {@code reports}. The ingest itself stays the recall tool's: this
 * wraps its handler and reads the reports back from its reply ({@link
 * RecallWire#readIngestReports}). Thread-safe.
 */
public final class IngestWaveTool {
  private IngestWaveTool() {}

  /** {@code tools} with the {@code ingest} tool, if there is one, running the waves. */
  public static List<ToolSpec> withWaves(List<ToolSpec> tools, GovernedRecall graph) {
    List<ToolSpec> out = new ArrayList<>(tools.size());
    for (ToolSpec t : tools) {
      out.add(t.name().equals("ingest") ? wrap(t, graph) : t);
    }
    return out;
  }

  private static ToolSpec wrap(ToolSpec ingest, GovernedRecall graph) {
    return new ToolSpec(
        ingest.name(),
        ingest.title(),
        ingest.description()
            + " A namespace whose governance setting "
            + GovernedMemory.EXTRACT_ON_INGEST
            + " is on then gets one extraction wave over what was ingested: its candidates wait"
            + " in the review queue, listed in extraction_waves.",
        ingest.inputSchema(),
        ingest.outputSchema(),
        ingest.effect(),
        ingest.role(),
        call -> {
          Reply reply = ingest.handler().handle(call);
          List<IngestReport> reports =
              RecallWire.readIngestReports(McpJson.compact(reply.structured().get("reports")));
          List<GovernedRecall.IngestWave> waves =
              graph.as(call.caller().actor()).afterIngest(GovernedRecall.ingested(reports));
          ObjectNode out = reply.structured().deepCopy();
          out.set(
              "extraction_waves",
              McpJson.parse(dev.loci.internal.Json.write(EntityWire.waves(waves))));
          return Reply.json(out);
        });
  }
}
