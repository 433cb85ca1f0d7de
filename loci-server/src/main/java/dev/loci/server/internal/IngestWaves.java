package dev.loci.server.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.govern.EntityWire;
import dev.loci.govern.Extraction;
import dev.loci.govern.ExtractionChunk;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.internal.Json;
import dev.loci.recall.IngestReport;
import dev.loci.server.spi.Exchange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ingestion-wave trigger of {@code POST ingest}: after the documents are written, each
 * namespace they went into whose {@value GovernedMemory#EXTRACT_ON_INGEST} setting is on (or every
 * one, when the request says {@code extract=memory|entities|both}; {@code extract=off} runs none)
 * gets one extraction wave over the chunks ingested from them, with its report written under the
 * data directory; the response lists the waves. The request's {@code extract} is checked before
 * anything is written. Thread-safe.
 */
public final class IngestWaves {
  /** The query parameter that overrides the namespace setting for one ingest. */
  public static final String PARAM = "extract";

  /** Runs no wave. */
  public static final IngestWaves NONE = new IngestWaves(Optional.empty(), Optional.empty());

  private final Optional<GovernedMemory> governed;
  private final Optional<GovernedRecall> graph;

  private IngestWaves(Optional<GovernedMemory> governed, Optional<GovernedRecall> graph) {
    this.governed = governed;
    this.graph = graph;
  }

  /** Waves over {@code graph}'s ingested nodes, proposed through {@code governed}. */
  public static IngestWaves of(GovernedMemory governed, GovernedRecall graph) {
    return new IngestWaves(Optional.of(governed), Optional.of(graph));
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
    Optional<String> asked = ex.query(PARAM);
    Optional<Optional<ExtractionTarget>> override =
        asked.map(a -> GovernedMemory.ingestTarget(a, PARAM));
    return reports -> {
      ArrayNode out = Json.MAPPER.createArrayNode();
      if (governed.isEmpty()) {
        return out;
      }
      GovernedMemory memory = governed.get().as(ex.actor());
      Map<Namespace, List<String>> documents = new LinkedHashMap<>();
      for (IngestReport r : reports) {
        for (Namespace ns : r.namespaces()) {
          documents.computeIfAbsent(ns, k -> new ArrayList<>()).add(r.source());
        }
      }
      documents.forEach(
          (ns, docs) -> {
            Optional<ExtractionTarget> target =
                override.orElseGet(() -> memory.extractOnIngest(ns));
            if (target.isEmpty()) {
              return;
            }
            List<ExtractionChunk> chunks = graph.get().ingestedChunks(ns, docs);
            if (chunks.isEmpty()) {
              return;
            }
            Extraction x = memory.extractWave(ns, chunks, target.get());
            ObjectNode wave = EntityWire.extraction(x);
            wave.put("namespace", ns.value());
            wave.put("chunks", chunks.size());
            out.add(wave);
          });
      return out;
    };
  }
}
