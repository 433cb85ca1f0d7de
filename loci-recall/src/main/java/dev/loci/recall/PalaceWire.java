package dev.loci.recall;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.recall.internal.RecallJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON wire format of the memory palace, shared by the HTTP server and the CLI: snake_case
 * members, absent optional values left out. Readers name the offending member in every {@link
 * InvalidRequestException}; unknown members are refused. Stateless and thread-safe.
 */
public final class PalaceWire {
  private PalaceWire() {}

  /**
   * A recall request with the palace's knobs.
   *
   * @param query the recall query
   * @param reinforce whether to record a useful use of every returned memory
   */
  public record RecallRequest(RecallQuery query, boolean reinforce) {}

  // ---------------------------------------------------------------- reading

  /**
   * Reads a recall request: the members of {@link RecallWire#readQuery} plus {@code "reinforce":
   * true|false} (default false).
   *
   * @throws InvalidRequestException naming the offending member
   */
  public static RecallRequest readRecall(String json) {
    ObjectNode in = object(json);
    boolean reinforce = false;
    JsonNode r = in.remove("reinforce");
    if (r != null) {
      if (!r.isBoolean()) {
        throw new InvalidRequestException("reinforce", "expected true or false, found " + r);
      }
      reinforce = r.asBoolean();
    }
    return new RecallRequest(RecallWire.readQuery(in.toString()), reinforce);
  }

  /**
   * Reads feedback: {@code {"node_ids": ["a", "b"], "route": ["a", "c"], "useful": true}}; {@code
   * route} is optional, {@code useful} defaults to true.
   *
   * @throws InvalidRequestException naming the offending member
   */
  public static Feedback readFeedback(String json) {
    ObjectNode in = object(json);
    only(in, Set.of("node_ids", "route", "useful"));
    boolean useful = true;
    JsonNode u = in.get("useful");
    if (u != null) {
      if (!u.isBoolean()) {
        throw new InvalidRequestException("useful", "expected true or false, found " + u);
      }
      useful = u.asBoolean();
    }
    return new Feedback(strings(in, "node_ids"), strings(in, "route"), useful);
  }

  /**
   * Reads a consolidation request: {@code {}} to consolidate, {@code {"undo": "<run id>"}} to undo
   * a run.
   *
   * @return the run to undo, if any
   * @throws InvalidRequestException naming the offending member
   */
  public static Optional<String> readConsolidate(String json) {
    ObjectNode in = json.isBlank() ? RecallJson.MAPPER.createObjectNode() : object(json);
    only(in, Set.of("undo"));
    JsonNode undo = in.get("undo");
    if (undo == null) {
      return Optional.empty();
    }
    if (!undo.isTextual() || undo.asText().isBlank()) {
      throw new InvalidRequestException("undo", "expected a consolidation run id, found " + undo);
    }
    return Optional.of(undo.asText());
  }

  private static ObjectNode object(String json) {
    JsonNode in;
    try {
      in = RecallJson.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException("body", "not valid JSON: " + e.getOriginalMessage());
    }
    if (in == null || !in.isObject()) {
      throw new InvalidRequestException("body", "expected a JSON object");
    }
    return (ObjectNode) in;
  }

  private static void only(JsonNode in, Set<String> allowed) {
    for (Iterator<String> it = in.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!allowed.contains(name)) {
        throw new InvalidRequestException(
            name,
            "unknown member; expected only "
                + String.join(", ", allowed.stream().sorted().toList()));
      }
    }
  }

  private static List<String> strings(JsonNode in, String field) {
    JsonNode a = in.get(field);
    if (a == null) {
      return List.of();
    }
    if (!a.isArray()) {
      throw new InvalidRequestException(
          field, "expected an array of node ids, found " + a.getNodeType());
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).isTextual() || a.get(i).asText().isEmpty()) {
        throw new InvalidRequestException(
            field + "[" + i + "]", "expected a node id, found " + a.get(i));
      }
      out.add(a.get(i).asText());
    }
    return out;
  }

  // ---------------------------------------------------------------- writing

  /** Spaces: {@code [{"id": ..., "kind": ..., "title": ..., "parent": ..., "memory_count": n}]}. */
  public static String writeSpaces(List<PalaceSpace> spaces) {
    return RecallJson.write(spaces);
  }

  /** A space and its memories: {@code {"space": {...}, "memories": [...]}}. */
  public static String writeSpace(PalaceSpace space, List<PalaceMemory> memories) {
    ObjectNode out = RecallJson.MAPPER.createObjectNode();
    out.set("space", RecallJson.tree(space));
    ArrayNode a = out.putArray("memories");
    memories.forEach(m -> a.add(memory(m)));
    return out.toString();
  }

  /** One memory with the lifecycle transitions it went through. */
  public static String writeMemory(PalaceMemory m, List<LifecycleTransition> transitions) {
    ObjectNode out = memory(m);
    ArrayNode t = out.putArray("transitions");
    transitions.forEach(x -> t.add(RecallJson.tree(x)));
    return out.toString();
  }

  /**
   * A memory: {@code id}, {@code type} ({@code episodic}, {@code semantic}, {@code route}), {@code
   * space_id}, {@code lifecycle_state}, {@code reinforcement_count}, {@code stability_score},
   * {@code last_access}, {@code content}, {@code links}, and {@code when}/{@code who}, {@code
   * sources} or {@code steps} by type.
   */
  static ObjectNode memory(PalaceMemory m) {
    ObjectNode out = RecallJson.MAPPER.createObjectNode();
    out.put("id", m.id());
    out.put("type", m.kind());
    m.spaceId().ifPresent(s -> out.put("space_id", s));
    MemoryState s = m.lifecycle();
    out.put("lifecycle_state", s.state().wireName());
    out.put("reinforcement_count", s.reinforcementCount());
    out.put("stability_score", s.stabilityScore());
    s.lastAccess().ifPresent(t -> out.put("last_access", t.toString()));
    out.put("content", m.content());
    if (m instanceof EpisodicMemory e) {
      e.when().ifPresent(w -> out.put("when", w));
      e.who().ifPresent(w -> out.put("who", w));
    } else if (m instanceof SemanticMemory sm) {
      ArrayNode a = out.putArray("sources");
      sm.sources().forEach(a::add);
    } else if (m instanceof RouteMemory r) {
      ArrayNode a = out.putArray("steps");
      r.steps().forEach(a::add);
    }
    out.set("links", RecallJson.tree(m.links()));
    return out;
  }

  /** What a feedback recorded. */
  public static String writeFeedback(FeedbackReport r) {
    return RecallJson.write(r);
  }

  /** What a sweep recorded. */
  public static String writeSweep(SweepReport r) {
    return RecallJson.write(r);
  }

  /** What a consolidation did. */
  public static String writeConsolidation(ConsolidationReport r) {
    return RecallJson.write(r);
  }

  /**
   * A recall through the palace: every member of {@link RecallWire#write} for the result, plus
   * {@code activation_snapshot} (the same values as {@code activation}), {@code
   * retrieved_memories}, {@code routes} and, with {@code reinforce}, {@code reinforced}.
   */
  public static String writeRecall(PalaceRecallResult r) {
    ObjectNode out = (ObjectNode) RecallJson.tree(r.result());
    out.set("activation_snapshot", out.get("activation"));
    ArrayNode memories = out.putArray("retrieved_memories");
    r.retrievedMemories().forEach(m -> memories.add(memory(m)));
    ArrayNode routes = out.putArray("routes");
    r.routes().forEach(m -> routes.add(memory(m)));
    r.reinforced().ifPresent(f -> out.set("reinforced", RecallJson.tree(f)));
    return out.toString();
  }
}
