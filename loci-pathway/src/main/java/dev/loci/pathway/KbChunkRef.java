package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A knowledge-base chunk the reviewer was given as context (spec section 2.3, {@code kb_chunks}).
 * Unknown JSON fields are ignored.
 *
 * @param sourceDoc the document the chunk came from; one {@code kb_doc:} token of {@code
 *     pathway_vec} each
 * @param chunkId the chunk's id within its document
 * @param cosineScore the retrieval score (a double, so that no writer's precision is lost)
 * @param rank the chunk's retrieval rank, at least 0
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"source_doc", "chunk_id", "cosine_score", "rank"})
public record KbChunkRef(
    @JsonProperty("source_doc") String sourceDoc,
    @JsonProperty("chunk_id") String chunkId,
    @JsonProperty("cosine_score") double cosineScore,
    @JsonProperty("rank") int rank) {

  /** Checks presence and ranges. */
  public KbChunkRef {
    Objects.requireNonNull(sourceDoc, "source_doc");
    Objects.requireNonNull(chunkId, "chunk_id");
    if (!Double.isFinite(cosineScore)) {
      throw new IllegalArgumentException("cosine_score must be finite, found " + cosineScore);
    }
    if (rank < 0) {
      throw new IllegalArgumentException("rank must be at least 0, found " + rank);
    }
    // documents and chunk ids repeat across traces: one copy each in the heap
    sourceDoc = sourceDoc.intern();
    chunkId = chunkId.intern();
  }
}
