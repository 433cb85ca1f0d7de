package dev.loci.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.recall.Feedback;
import dev.loci.recall.LifecycleState;
import dev.loci.recall.PalaceWire;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What a recall case expects beyond its evidence ids, and what is done before it is asked; read
 * from the case's {@code expectation} and {@code setup}. See {@link CasesBenchmark} for the format.
 *
 * @param path the steps a path must match; empty for no path check
 * @param pathScope {@code best_path} (the top item's path) or {@code any} (any item's)
 * @param matchMode {@code prefix}, {@code subsequence} or {@code exact}
 * @param semanticRoles node id to the roles its {@code semantic_roles} must hold ({@code *} for any
 *     returned node)
 * @param contradictionPairs pairs of node ids returned together as contradicting
 * @param trace activation-trace steps that must occur, in order
 * @param stopReasons stop reasons the trace must contain
 * @param minTrace the least trace length, if any
 * @param maxTrace the greatest trace length, if any
 * @param snapshot node id to the least activation it must have in the snapshot
 * @param route the steps of a route the recall must replay; empty for none
 * @param spaceIds spaces the retrieved memories must be located in
 * @param lifecycleStates node id to the state it must be in after the recall
 * @param scenarioTags scenario tags some returned node must carry
 * @param symbolicTags symbolic tags some returned node must carry
 */
record CaseExpectation(
    List<Step> path,
    String pathScope,
    String matchMode,
    Map<String, List<String>> semanticRoles,
    List<List<String>> contradictionPairs,
    List<TraceStep> trace,
    List<String> stopReasons,
    OptionalInt minTrace,
    OptionalInt maxTrace,
    Map<String, Double> snapshot,
    List<String> route,
    List<String> spaceIds,
    Map<String, LifecycleState> lifecycleStates,
    List<String> scenarioTags,
    List<String> symbolicTags) {

  /** The path scopes. */
  static final Set<String> SCOPES = Set.of("best_path", "any");

  /** The match modes. */
  static final Set<String> MATCH_MODES = Set.of("prefix", "subsequence", "exact");

  /** Any returned node, as a key of {@link #semanticRoles}. */
  static final String ANY_NODE = "*";

  /** Checks and copies. */
  CaseExpectation {
    path = List.copyOf(path);
    if (!SCOPES.contains(pathScope)) {
      throw new IllegalArgumentException(
          "expected path_scope best_path or any, found " + pathScope);
    }
    if (!MATCH_MODES.contains(matchMode)) {
      throw new IllegalArgumentException(
          "expected match_mode prefix, subsequence or exact, found " + matchMode);
    }
    semanticRoles = Map.copyOf(semanticRoles);
    contradictionPairs = contradictionPairs.stream().map(List::copyOf).toList();
    trace = List.copyOf(trace);
    stopReasons = List.copyOf(stopReasons);
    Objects.requireNonNull(minTrace, "minTrace");
    Objects.requireNonNull(maxTrace, "maxTrace");
    snapshot = Map.copyOf(snapshot);
    route = List.copyOf(route);
    spaceIds = List.copyOf(spaceIds);
    lifecycleStates = Map.copyOf(lifecycleStates);
    scenarioTags = List.copyOf(scenarioTags);
    symbolicTags = List.copyOf(symbolicTags);
  }

  /**
   * One path step; an empty field matches anything.
   *
   * @param nodeId the node
   * @param viaEdgeType the edge type followed into it ({@code seed} for the first)
   */
  record Step(Optional<String> nodeId, Optional<String> viaEdgeType) {}

  /**
   * One expected activation-trace step; an empty field matches anything.
   *
   * @param nodeId the node
   * @param hop the hop
   * @param isSeed whether it is a seed
   * @param edgeType the edge type
   */
  record TraceStep(
      Optional<String> nodeId,
      OptionalInt hop,
      Optional<Boolean> isSeed,
      Optional<String> edgeType) {}

  /**
   * One setup action, done in order before the case is asked.
   *
   * @param feedback a feedback call, if this is one
   * @param advance how far to move the run's clock, if this is that
   * @param sweep whether this is a lifecycle sweep
   */
  record Action(Optional<Feedback> feedback, Optional<Duration> advance, boolean sweep) {}

  /** The families of checks, each reported as its own hit rate. */
  static final List<String> FAMILIES =
      List.of("evidence", "path", "structure", "trace", "snapshot", "route", "space", "lifecycle");

  /** The families this expectation checks, beyond {@code evidence}. */
  List<String> families() {
    List<String> out = new ArrayList<>();
    if (!path.isEmpty()) {
      out.add("path");
    }
    if (!semanticRoles.isEmpty()
        || !contradictionPairs.isEmpty()
        || !scenarioTags.isEmpty()
        || !symbolicTags.isEmpty()) {
      out.add("structure");
    }
    if (!trace.isEmpty()
        || !stopReasons.isEmpty()
        || minTrace.isPresent()
        || maxTrace.isPresent()) {
      out.add("trace");
    }
    if (!snapshot.isEmpty()) {
      out.add("snapshot");
    }
    if (!route.isEmpty()) {
      out.add("route");
    }
    if (!spaceIds.isEmpty()) {
      out.add("space");
    }
    if (!lifecycleStates.isEmpty()) {
      out.add("lifecycle");
    }
    return out;
  }

  /**
   * Reads the expectation object {@code e} of case {@code id}.
   *
   * @throws IllegalArgumentException naming the case and the field for a value of the wrong shape
   */
  static CaseExpectation read(String id, JsonNode e) {
    try {
      List<Step> path = new ArrayList<>();
      for (JsonNode s : array(e, "path")) {
        path.add(new Step(text(s, "node_id"), text(s, "via_edge_type")));
      }
      Map<String, List<String>> roles = new LinkedHashMap<>();
      JsonNode r = e.path("required_semantic_roles");
      if (r.isArray()) {
        roles.put(ANY_NODE, strings(e, "required_semantic_roles"));
      } else if (r.isObject()) {
        r.fields().forEachRemaining(f -> roles.put(f.getKey(), strings(r, f.getKey())));
      } else if (!r.isMissingNode()) {
        throw new IllegalArgumentException(
            "required_semantic_roles: expected an array of roles or an object of node id to"
                + " roles");
      }
      List<List<String>> pairs = new ArrayList<>();
      for (JsonNode p : array(e, "required_contradiction_pairs")) {
        if (!p.isArray() || p.size() != 2) {
          throw new IllegalArgumentException(
              "required_contradiction_pairs: expected pairs of two node ids, found " + p);
        }
        pairs.add(List.of(p.get(0).asText(), p.get(1).asText()));
      }
      List<TraceStep> trace = new ArrayList<>();
      for (JsonNode s : array(e, "activation_trace")) {
        trace.add(
            new TraceStep(
                text(s, "node_id"),
                s.has("hop") ? OptionalInt.of(s.get("hop").asInt()) : OptionalInt.empty(),
                s.has("is_seed") ? Optional.of(s.get("is_seed").asBoolean()) : Optional.empty(),
                text(s, "edge_type")));
      }
      Map<String, Double> snapshot = new LinkedHashMap<>();
      JsonNode snap = e.path("activation_snapshot");
      if (snap.isArray()) {
        snap.forEach(n -> snapshot.put(n.asText(), Double.MIN_VALUE));
      } else if (snap.isObject()) {
        snap.fields().forEachRemaining(f -> snapshot.put(f.getKey(), f.getValue().asDouble()));
      } else if (!snap.isMissingNode()) {
        throw new IllegalArgumentException(
            "activation_snapshot: expected an array of node ids or an object of node id to the"
                + " least activation");
      }
      Map<String, LifecycleState> states = new LinkedHashMap<>();
      JsonNode ls = e.path("required_lifecycle_states");
      if (ls.isObject()) {
        ls.fields()
            .forEachRemaining(
                f -> states.put(f.getKey(), LifecycleState.parse(f.getValue().asText())));
      } else if (!ls.isMissingNode()) {
        throw new IllegalArgumentException(
            "required_lifecycle_states: expected an object of node id to state");
      }
      return new CaseExpectation(
          path,
          text(e, "path_scope").orElse("any"),
          text(e, "match_mode").orElse("subsequence"),
          roles,
          pairs,
          trace,
          strings(e, "required_trace_stop_reasons"),
          integer(e, "min_activation_trace_length"),
          integer(e, "max_activation_trace_length"),
          snapshot,
          strings(e, "route"),
          strings(e, "required_space_ids"),
          states,
          strings(e, "required_scenario_tags"),
          strings(e, "required_symbolic_tags"));
    } catch (IllegalArgumentException | InvalidRequestException ex) {
      throw new IllegalArgumentException("case " + id + ": " + ex.getMessage(), ex);
    }
  }

  /**
   * Reads the {@code setup} array of case {@code id}: objects with one of {@code feedback} (the
   * body of {@code POST feedback}), {@code advance} (an ISO-8601 duration such as {@code P30D}) or
   * {@code sweep: true}.
   */
  static List<Action> readSetup(String id, JsonNode setup) {
    List<Action> out = new ArrayList<>();
    if (setup.isMissingNode()) {
      return out;
    }
    if (!setup.isArray()) {
      throw new IllegalArgumentException("case " + id + ": setup: expected an array of actions");
    }
    for (JsonNode a : setup) {
      if (a.has("feedback")) {
        Feedback f;
        try {
          f = PalaceWire.readFeedback(a.get("feedback").toString());
        } catch (InvalidRequestException ex) {
          throw new IllegalArgumentException(
              "case " + id + ": setup feedback: " + ex.getMessage(), ex);
        }
        out.add(new Action(Optional.of(f), Optional.empty(), false));
      } else if (a.has("advance")) {
        try {
          out.add(
              new Action(
                  Optional.empty(), Optional.of(Duration.parse(a.get("advance").asText())), false));
        } catch (DateTimeParseException ex) {
          throw new IllegalArgumentException(
              "case "
                  + id
                  + ": setup advance: expected an ISO-8601 duration such as P30D, found "
                  + a.get("advance"),
              ex);
        }
      } else if (a.path("sweep").asBoolean(false)) {
        out.add(new Action(Optional.empty(), Optional.empty(), true));
      } else {
        throw new IllegalArgumentException(
            "case " + id + ": setup: expected feedback, advance or sweep, found " + a);
      }
    }
    return out;
  }

  private static Iterable<JsonNode> array(JsonNode in, String field) {
    JsonNode v = in.path(field);
    if (v.isMissingNode()) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new IllegalArgumentException(field + ": expected an array, found " + v);
    }
    return v;
  }

  private static List<String> strings(JsonNode in, String field) {
    List<String> out = new ArrayList<>();
    array(in, field).forEach(n -> out.add(n.asText()));
    return out;
  }

  private static Optional<String> text(JsonNode in, String field) {
    JsonNode v = in.get(field);
    return v != null && v.isTextual() && !v.asText().isBlank()
        ? Optional.of(v.asText())
        : Optional.empty();
  }

  private static OptionalInt integer(JsonNode in, String field) {
    JsonNode v = in.get(field);
    if (v == null) {
      return OptionalInt.empty();
    }
    if (!v.canConvertToInt() || v.asInt() < 0) {
      throw new IllegalArgumentException(field + ": expected a count, found " + v);
    }
    return OptionalInt.of(v.asInt());
  }
}
