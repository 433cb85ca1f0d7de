package dev.loci.server.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.internal.Json;
import dev.loci.recall.IngestReport;
import dev.loci.server.spi.Exchange;
import java.util.List;
import java.util.Optional;

/**
 * The ingestion-wave trigger of {@code POST ingest}: after the documents are written, each
 * namespace they went into whose {@value GovernedMemory#EXTRACT_ON_INGEST} setting is on (or every
 * one, when the request says {@code extract=memory|entities|both}; {@code extract=off} runs none)
 * gets one extraction wave over the chunks ingested from them ({@link GovernedRecall#afterIngest},
 * the same code {@code loci ingest} and the MCP {@code ingest} tool run), with its report written
 * under the data directory; the response lists the waves. The request's {@code extract} is checked
 * before anything is written. Thread-safe.
 */
public final class IngestWaves {
  /** The query parameter that overrides the namespace setting for one ingest. */
  public static final String PARAM = "extract";

  /** Runs no wave. */
  public static final IngestWaves NONE = new IngestWaves(Optional.empty());

  private final Optional<GovernedRecall> graph;

  private IngestWaves(Optional<GovernedRecall> graph) {
    this.graph = graph;
  }

  /** Waves over {@code graph}'s ingested nodes. */
  public static IngestWaves of(GovernedRecall graph) {
    return new IngestWaves(Optional.of(graph));
  }

  /** What one ingest request will extract, checked before anything is written. */
  public interface Plan {
    /** Runs the waves over what {@code reports} ingested; returns their reports as JSON. */
    ArrayNode run(List<IngestReport> reports);
  }

  /**
   * The plan of {@code ex}: its {@code extract} parameter, if given, else each namespace's setting.
   *
   * @throws dev.loci.InvalidRequestException naming {@code extract} if it is not {@code off},
   *     {@code memory}, {@code entities} or {@code both}
   */
  public Plan plan(Exchange ex) {
    Optional<Optional<ExtractionTarget>> override =
        ex.query(PARAM).map(a -> GovernedMemory.ingestTarget(a, PARAM));
    return reports -> {
      if (graph.isEmpty() || override.filter(Optional::isEmpty).isPresent()) {
        return Json.MAPPER.createArrayNode();
      }
      GovernedRecall g = graph.get().as(ex.actor());
      var documents = GovernedRecall.ingested(reports);
      return EntityWire.waves(
          override.isPresent()
              ? g.afterIngest(documents, override.get().get())
              : g.afterIngest(documents));
    };
  }
}
