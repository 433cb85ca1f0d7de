package dev.loci.bench;

import dev.loci.recall.ActivationStep;
import dev.loci.recall.LifecycleState;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.PalaceMemory;
import dev.loci.recall.PalaceRecallResult;
import dev.loci.recall.PathStep;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RouteMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Judges one palace recall against one case, family by family: evidence, path, structure (semantic
 * roles, contradiction pairs, scenario and symbolic tags), trace, snapshot, route, space and
 * lifecycle. Each family the case expects passes or fails as a whole; the misses say what was not
 * found. Stateless.
 */
final class CaseJudge {
  private CaseJudge() {}

  /**
   * What one mode did with one case.
   *
   * @param found the evidence ids among the top k
   * @param edgeTypes the edge types on the paths that reached them
   * @param families each family the case expects to whether it passed, in {@link
   *     CaseExpectation#FAMILIES} order
   * @param misses what was expected and not found, for people
   * @param paths each item's path, best first, as {@code a --type--> b}
   * @param passed whether every family passed
   */
  record Outcome(
      List<String> found,
      Set<String> edgeTypes,
      Map<String, Boolean> families,
      List<String> misses,
      List<String> paths,
      boolean passed) {
    Outcome {
      found = List.copyOf(found);
      edgeTypes = Set.copyOf(edgeTypes);
      families = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(families));
      misses = List.copyOf(misses);
      paths = List.copyOf(paths);
    }
  }

  /**
   * Judges {@code pr} against {@code c}, reading lifecycle states after the recall through {@code
   * lifecycle} (empty for a node that is not a memory).
   */
  static Outcome judge(
      CasesBenchmark.Case c,
      PalaceRecallResult pr,
      Function<String, Optional<LifecycleState>> lifecycle) {
    RecallResult r = pr.result();
    CaseExpectation e = c.expectation();
    List<String> misses = new ArrayList<>();
    Map<String, Boolean> families = new LinkedHashMap<>();
    List<String> found = new ArrayList<>();
    Set<String> edges = new LinkedHashSet<>();
    for (RecallItem item : r.items()) {
      if (c.evidence().contains(item.node().id())) {
        found.add(item.node().id());
        for (PathStep s : item.path().steps()) {
          if (!s.via().equals(PathStep.SEED)) {
            edges.add(s.via());
          }
        }
      }
    }
    if (!c.evidence().isEmpty()) {
      boolean ok = found.size() >= c.minimum() && edges.containsAll(c.edgeTypes());
      if (!ok) {
        misses.add("evidence " + found.size() + "/" + c.evidence().size() + " via " + edges);
      }
      families.put("evidence", ok);
    }
    for (String family : e.families()) {
      int before = misses.size();
      switch (family) {
        case "path" -> path(e, r, misses);
        case "structure" -> structure(e, r, misses);
        case "trace" -> trace(e, r, misses);
        case "snapshot" ->
            e.snapshot()
                .forEach(
                    (id, least) -> {
                      Double v = r.activation().get(id);
                      if (v == null || v < least) {
                        misses.add("activation_snapshot " + id + " " + v + " < " + least);
                      }
                    });
        case "route" -> {
          if (pr.routes().stream().map(RouteMemory::steps).noneMatch(e.route()::equals)) {
            misses.add("route " + e.route());
          }
        }
        case "space" -> {
          Set<String> spaces = new LinkedHashSet<>();
          pr.retrievedMemories().stream()
              .map(PalaceMemory::spaceId)
              .flatMap(Optional::stream)
              .forEach(spaces::add);
          e.spaceIds().stream()
              .filter(s -> !spaces.contains(s))
              .forEach(s -> misses.add("space " + s));
        }
        case "lifecycle" ->
            e.lifecycleStates()
                .forEach(
                    (id, state) -> {
                      Optional<LifecycleState> actual = lifecycle.apply(id);
                      if (!actual.equals(Optional.of(state))) {
                        misses.add("lifecycle " + id + " " + actual.orElse(null) + " != " + state);
                      }
                    });
        default -> throw new IllegalStateException(family);
      }
      families.put(family, misses.size() == before);
    }
    List<String> paths = new ArrayList<>();
    for (RecallItem item : r.items()) {
      StringBuilder b = new StringBuilder();
      for (PathStep s : item.path().steps()) {
        if (!s.via().equals(PathStep.SEED)) {
          b.append(" --").append(s.via()).append("--> ");
        }
        b.append(s.nodeId());
      }
      paths.add(b.toString());
    }
    return new Outcome(found, edges, families, misses, paths, misses.isEmpty());
  }

  private static void path(CaseExpectation e, RecallResult r, List<String> misses) {
    List<RecallItem> scope = e.pathScope().equals("best_path") ? bestPath(r) : r.items();
    boolean any = scope.stream().anyMatch(i -> matches(e.path(), i.path().steps(), e.matchMode()));
    if (!any) {
      misses.add("path (" + e.pathScope() + ", " + e.matchMode() + ")");
    }
  }

  /**
   * The item holding the best path: the top-ranked item reached through at least one edge, or the
   * top item when every item is a seed alone.
   */
  static List<RecallItem> bestPath(RecallResult r) {
    return r.items().stream()
        .filter(i -> i.path().steps().size() > 1)
        .findFirst()
        .or(() -> r.items().stream().findFirst())
        .map(List::of)
        .orElse(List.of());
  }

  /** Whether {@code actual} matches the expected steps under {@code mode}. */
  static boolean matches(List<CaseExpectation.Step> expected, List<PathStep> actual, String mode) {
    return switch (mode) {
      case "exact" -> expected.size() == actual.size() && prefix(expected, actual);
      case "prefix" -> expected.size() <= actual.size() && prefix(expected, actual);
      default -> {
        int i = 0;
        for (PathStep s : actual) {
          if (i < expected.size() && step(expected.get(i), s)) {
            i++;
          }
        }
        yield i == expected.size();
      }
    };
  }

  private static boolean prefix(List<CaseExpectation.Step> expected, List<PathStep> actual) {
    for (int i = 0; i < expected.size(); i++) {
      if (!step(expected.get(i), actual.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean step(CaseExpectation.Step e, PathStep s) {
    return e.nodeId().map(s.nodeId()::equals).orElse(true)
        && e.viaEdgeType().map(s.via()::equals).orElse(true);
  }

  private static void structure(CaseExpectation e, RecallResult r, List<String> misses) {
    Map<String, MemoryNode> returned = new LinkedHashMap<>();
    r.items().forEach(i -> returned.put(i.node().id(), i.node()));
    e.semanticRoles()
        .forEach(
            (id, roles) -> {
              Set<String> have = new LinkedHashSet<>();
              if (id.equals(CaseExpectation.ANY_NODE)) {
                returned.values().forEach(n -> have.addAll(listed(n, "semantic_roles")));
              } else if (returned.containsKey(id)) {
                have.addAll(listed(returned.get(id), "semantic_roles"));
              }
              roles.stream()
                  .filter(role -> !have.contains(role))
                  .forEach(role -> misses.add("semantic role " + role + " on " + id));
            });
    for (List<String> pair : e.contradictionPairs()) {
      MemoryNode a = returned.get(pair.get(0));
      MemoryNode b = returned.get(pair.get(1));
      boolean ok =
          a != null
              && b != null
              && (listed(a, "contradicts").contains(b.id())
                  || listed(b, "contradicts").contains(a.id()));
      if (!ok) {
        misses.add("contradiction " + pair);
      }
    }
    tags(returned, "scenario_tags", e.scenarioTags(), misses);
    tags(returned, "symbolic_tags", e.symbolicTags(), misses);
  }

  private static void tags(
      Map<String, MemoryNode> returned, String key, List<String> wanted, List<String> misses) {
    Set<String> have = new LinkedHashSet<>();
    returned.values().forEach(n -> have.addAll(listed(n, key)));
    wanted.stream().filter(t -> !have.contains(t)).forEach(t -> misses.add(key + " " + t));
  }

  private static List<String> listed(MemoryNode n, String key) {
    String v = n.attributes().get(key);
    return v == null || v.isEmpty() ? List.of() : Arrays.asList(v.split(","));
  }

  private static void trace(CaseExpectation e, RecallResult r, List<String> misses) {
    List<ActivationStep> trace = r.activationTrace();
    int i = 0;
    for (ActivationStep s : trace) {
      if (i < e.trace().size() && traceStep(e.trace().get(i), s)) {
        i++;
      }
    }
    if (i < e.trace().size()) {
      misses.add("activation_trace step " + i + " " + e.trace().get(i));
    }
    Set<String> reasons = new LinkedHashSet<>();
    trace.forEach(s -> s.stopReason().ifPresent(reasons::add));
    e.stopReasons().stream()
        .filter(reason -> !reasons.contains(reason))
        .forEach(reason -> misses.add("stop reason " + reason));
    e.minTrace()
        .ifPresent(
            min -> {
              if (trace.size() < min) {
                misses.add("activation trace of " + trace.size() + " < " + min);
              }
            });
    e.maxTrace()
        .ifPresent(
            max -> {
              if (trace.size() > max) {
                misses.add("activation trace of " + trace.size() + " > " + max);
              }
            });
  }

  private static boolean traceStep(CaseExpectation.TraceStep e, ActivationStep s) {
    return e.nodeId().map(s.nodeId()::equals).orElse(true)
        && (e.hop().isEmpty() || e.hop().getAsInt() == s.hop())
        && e.isSeed().map(b -> b == s.isSeed()).orElse(true)
        && e.edgeType().map(s.edgeType()::equals).orElse(true);
  }
}
