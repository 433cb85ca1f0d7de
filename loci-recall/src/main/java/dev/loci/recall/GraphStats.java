package dev.loci.recall;

import dev.loci.Namespace;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The size of one namespace's memory graph.
 *
 * @param namespace the namespace counted
 * @param nodes how many live nodes it holds
 * @param edges how many live edges it holds
 * @param removedNodes how many nodes it held and removed (their history is kept)
 * @param removedEdges how many edges it held and removed
 * @param nodeTypes live nodes by type, sorted by type
 * @param edgeTypes live edges by edge type, sorted by type
 */
public record GraphStats(
    Namespace namespace,
    int nodes,
    int edges,
    int removedNodes,
    int removedEdges,
    Map<String, Integer> nodeTypes,
    Map<String, Integer> edgeTypes) {
  /** Checks presence and copies the maps, sorted by key. */
  public GraphStats {
    Objects.requireNonNull(namespace, "namespace");
    nodeTypes = Collections.unmodifiableSortedMap(new TreeMap<>(nodeTypes));
    edgeTypes = Collections.unmodifiableSortedMap(new TreeMap<>(edgeTypes));
  }
}
