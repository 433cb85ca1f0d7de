package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A trace found by similarity.
 *
 * @param trace the trace
 * @param score the cosine similarity of its {@code pathway_vec} to the query vector, -1 to 1
 */
@JsonPropertyOrder({"score", "trace"})
public record ScoredTrace(PathwayTrace trace, double score) {}
