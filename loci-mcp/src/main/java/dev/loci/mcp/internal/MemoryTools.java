package dev.loci.mcp.internal;

import static dev.loci.mcp.internal.Schemas.integer;
import static dev.loci.mcp.internal.Schemas.namespace;
import static dev.loci.mcp.internal.Schemas.number;
import static dev.loci.mcp.internal.Schemas.object;
import static dev.loci.mcp.internal.Schemas.oneOf;
import static dev.loci.mcp.internal.Schemas.optional;
import static dev.loci.mcp.internal.Schemas.required;
import static dev.loci.mcp.internal.Schemas.string;
import static dev.loci.mcp.internal.Schemas.strings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Trace;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityWire;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.GovernWire;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Provenance;
import dev.loci.govern.Reviewer;
import dev.loci.govern.Written;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallWire;
import dev.loci.server.Role;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Loci's own memory tools: {@code remember}, {@code context}, {@code history}, {@code forget} and
 * the review tools, each one call on {@link GovernedMemory}, the trace store or {@link
 * RecallMemory}.
 */
public final class MemoryTools {
  private static final List<String> TYPES =
      Arrays.stream(MemoryType.values()).map(MemoryType::label).toList();
  private static final List<String> KINDS = List.of("memory", "trace", "node");
  private static final int DEFAULT_BUDGET = 2000;

  private final Loci loci;
  private final GovernedMemory governed;
  private final RecallMemory recall;

  /** Tools over {@code loci}'s trace store, governed memory and memory graph. */
  public MemoryTools(Loci loci, GovernedMemory governed, RecallMemory recall) {
    this.loci = loci;
    this.governed = governed;
    this.recall = recall;
  }

  /** The tools, in the order {@code tools/list} shows them. */
  public List<ToolSpec> tools() {
    return List.of(
        new ToolSpec(
            "remember",
            "Remember",
            "Store something worth keeping: an observation, a fact, a preference, a decision. By"
                + " default it becomes a governed memory candidate that a person reviews before it"
                + " is trusted (an equal candidate or active memory is reinforced instead of"
                + " stored twice); with kind=trace it is kept as a raw trace. Returns the stored"
                + " record and any conflict it opens.",
            object(
                true,
                required("content", string("What to remember, in plain words (1-4,000 chars).")),
                optional(
                    "type",
                    oneOf(
                        "The memory type (default episodic): identity and preference are about"
                            + " the user, episodic is what happened, knowledge a fact, project a"
                            + " decision or state of the project, adaptation how to work better.",
                        TYPES)),
                optional("kind", oneOf("memory (default) or trace.", List.of("memory", "trace"))),
                optional("confidence", number("How sure, 0 to 1 (default 0.5).", 0, 1)),
                optional(
                    "slot",
                    string(
                        "What the memory is about, for contradiction checks, e.g. coffee or"
                            + " deploy_day ([A-Za-z0-9_.:-], 1-128 chars).")),
                optional("subject_ids", strings("The people the memory is about, by id.")),
                optional("tags", strings("Tags of a trace (kind=trace only).")),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.WRITE,
            Role.WRITER,
            this::remember),
        new ToolSpec(
            "context",
            "Context pack",
            "Get the trusted context for a prompt within a token budget: project state, identity"
                + " and preference memories, then the active memories most relevant to the"
                + " prompt, in trust order, each with provenance. Candidates are never included."
                + " Put the text into the prompt.",
            object(
                true,
                required("prompt", string("The prompt or task to build context for.")),
                optional(
                    "budget_tokens",
                    integer(
                        "The most tokens (cl100k_base) the pack may use (default "
                            + DEFAULT_BUDGET
                            + ").",
                        1,
                        GovernedMemory.MAX_BUDGET)),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.READ,
            Role.READER,
            this::context),
        new ToolSpec(
            "history",
            "History of a record",
            "List every version of a record, newest first: a governed memory (its status,"
                + " confidence and reinforcements over time), or, for a credential with the legal"
                + " role only, a memory-graph node or a trace, whose superseded versions may carry"
                + " personal data.",
            object(
                true,
                required("id", string("The record id (memory id, node id or trace uid).")),
                optional("kind", oneOf("memory (default), node or trace.", KINDS)),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.READ,
            Role.READER,
            this::history),
        new ToolSpec(
            "forget",
            "Forget",
            "Stop using a record without erasing it (its history is kept and audited): a"
                + " governed memory is invalidated with a reason (reviewer role), a trace is"
                + " retired, a memory-graph node is removed along with its edges. Never a silent"
                + " delete.",
            object(
                true,
                required("id", string("The record id (memory id, trace uid or node id).")),
                optional("kind", oneOf("memory (default), trace or node.", KINDS)),
                optional("reason", string("Why (required for a memory).")),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.DESTRUCTIVE,
            Role.WRITER,
            this::forget),
        new ToolSpec(
            "review_queue",
            "Review queue",
            "List the one review queue: governed memory and entity candidates awaiting a"
                + " decision, side by side, grouped by source (interaction, chunk, actor), oldest"
                + " first, each with its kind and the rule that fired. Reviewer role.",
            object(true, namespace()),
            Optional.empty(),
            ToolSpec.Effect.READ,
            Role.REVIEWER,
            this::reviewQueue),
        new ToolSpec(
            "promote",
            "Promote a candidate",
            "Make a candidate of the review queue, memory or entity, active (trusted). Reviewer"
                + " role; the decision is recorded with the credential. Returns the record (memory"
                + " or entity) and any conflict it opens.",
            object(
                true, required("id", string("The candidate's memory or entity id.")), namespace()),
            Optional.empty(),
            ToolSpec.Effect.WRITE,
            Role.REVIEWER,
            this::promote),
        new ToolSpec(
            "reject",
            "Reject a candidate",
            "Reject a candidate of the review queue, memory or entity, with a reason; it becomes"
                + " invalid and stays as history. Reviewer role.",
            object(
                true,
                required("id", string("The candidate's memory or entity id.")),
                required("reason", string("Why it is rejected.")),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.DESTRUCTIVE,
            Role.REVIEWER,
            this::reject));
  }

  private Reply remember(Call call) {
    Args a =
        call.args()
            .allowOnly(
                Set.of(
                    "content",
                    "type",
                    "kind",
                    "confidence",
                    "slot",
                    "subject_ids",
                    "tags",
                    Call.NAMESPACE));
    Namespace ns = call.namespace();
    String content = a.requireString("content");
    String kind = a.string("kind").orElse("memory");
    String actor = call.caller().actor();
    if (kind.equals("trace")) {
      for (String memoryOnly : List.of("type", "confidence", "slot", "subject_ids")) {
        if (a.has(memoryOnly)) {
          throw new InvalidRequestException(
              a.field(memoryOnly), "applies to kind=memory only; a trace takes content and tags");
        }
      }
      Trace t =
          loci.traces()
              .as(actor)
              .add(
                  ns,
                  McpJson.compact(McpJson.MAPPER.valueToTree(content)),
                  a.strings("tags").orElse(List.of()));
      ObjectNode out = McpJson.object().put("kind", "trace");
      out.set("trace", trace(t));
      return Reply.json(out);
    }
    if (!kind.equals("memory")) {
      throw new InvalidRequestException(
          a.field("kind"), "expected memory or trace, found '" + kind + "'");
    }
    if (a.has("tags")) {
      throw new InvalidRequestException(a.field("tags"), "applies to kind=trace only");
    }
    MemoryType type = MemoryType.of(a.string("type").orElse("episodic"), a.field("type"));
    MemoryDraft draft =
        new MemoryDraft(
            type,
            content,
            a.number("confidence").orElse(0.5),
            a.string("slot"),
            a.strings("subject_ids").orElse(List.of()),
            Provenance.of(actor));
    Written w = governed.as(actor).propose(ns, draft);
    ObjectNode out = McpJson.object().put("kind", "memory");
    out.setAll(GovernWire.written(w));
    return Reply.json(out);
  }

  private static ObjectNode trace(Trace t) {
    ObjectNode n = McpJson.object();
    n.put("uid", t.uid());
    n.put("namespace", t.namespace().value());
    n.set("content", McpJson.parse(t.content()));
    ArrayNode tags = n.putArray("tags");
    t.tags().forEach(tags::add);
    n.put("created_at", t.createdAt().toString());
    n.put("updated_at", t.updatedAt().toString());
    n.put("retired", t.retired());
    return n;
  }

  private Reply context(Call call) {
    Args a = call.args().allowOnly(Set.of("prompt", "budget_tokens", Call.NAMESPACE));
    Namespace ns = call.namespace();
    ContextPack pack =
        governed.context(
            ns, a.requireString("prompt"), a.integer("budget_tokens").orElse(DEFAULT_BUDGET));
    StringBuilder text = new StringBuilder();
    for (ContextPack.Slot s : pack.slots()) {
      if (s.items().isEmpty()) {
        continue;
      }
      text.append("## ").append(s.name()).append('\n');
      for (ContextPack.Item it : s.items()) {
        text.append("- ").append(it.text()).append(" [").append(it.provenance()).append("]\n");
      }
    }
    if (text.length() == 0) {
      text.append("(no trusted context in ").append(ns).append(" yet)\n");
    }
    text.append("(")
        .append(pack.usedTokens())
        .append(" of ")
        .append(pack.budgetTokens())
        .append(" tokens)");
    return new Reply(text.toString(), GovernWire.contextPack(pack));
  }

  private Reply history(Call call) {
    Args a = call.args().allowOnly(Set.of("id", "kind", Call.NAMESPACE));
    Namespace ns = call.namespace();
    String id = a.requireString("id");
    String kind = kind(a);
    ObjectNode out = McpJson.object().put("kind", kind).put("id", id);
    ArrayNode versions = out.putArray("versions");
    switch (kind) {
      case "memory" -> governed.history(ns, id).forEach(m -> versions.add(GovernWire.memory(m)));
      case "node" ->
          recall
              .nodeHistory(ns, id, call.legal(a.field("id"), "the history of node '" + id + "'"))
              .forEach(v -> versions.add(McpJson.parse(RecallWire.writeNode(v))));
      default ->
          loci.traces()
              .history(ns, id, call.legal(a.field("id"), "the history of trace '" + id + "'"))
              .forEach(t -> versions.add(trace(t)));
    }
    return Reply.json(out);
  }

  private Reply forget(Call call) {
    Args a = call.args().allowOnly(Set.of("id", "kind", "reason", Call.NAMESPACE));
    Namespace ns = call.namespace();
    String id = a.requireString("id");
    String kind = kind(a);
    String actor = call.caller().actor();
    ObjectNode out = McpJson.object().put("kind", kind);
    switch (kind) {
      case "memory" -> {
        call.require(Role.REVIEWER, "forget of a governed memory (invalidating it)");
        String reason = a.requireString("reason");
        Memory m = governed.as(actor).invalidate(ns, id, reason, reviewer(call));
        out.put("outcome", "invalidated");
        out.set("memory", GovernWire.memory(m));
      }
      case "trace" -> {
        Trace t = loci.traces().as(actor).retire(ns, id);
        out.put("outcome", "retired");
        out.set("trace", trace(t));
      }
      default -> {
        out.put("outcome", "removed");
        out.set("node", McpJson.parse(RecallWire.writeNode(recall.as(actor).removeNode(ns, id))));
      }
    }
    return Reply.json(out);
  }

  private static String kind(Args a) {
    String kind = a.string("kind").orElse("memory");
    if (!KINDS.contains(kind)) {
      throw new InvalidRequestException(
          a.field("kind"), "expected memory, node or trace, found '" + kind + "'");
    }
    return kind;
  }

  private Reply reviewQueue(Call call) {
    call.args().allowOnly(Set.of(Call.NAMESPACE));
    Namespace ns = call.namespace();
    ObjectNode out = McpJson.object().put("namespace", ns.value());
    ArrayNode items = out.putArray("candidates");
    governed.queue(ns).forEach(c -> items.add(EntityWire.candidate(c)));
    return Reply.json(out);
  }

  private Reply promote(Call call) {
    Args a = call.args().allowOnly(Set.of("id", Call.NAMESPACE));
    Namespace ns = call.namespace();
    Object w =
        governed
            .as(call.caller().actor())
            .promoteCandidate(ns, a.requireString("id"), reviewer(call));
    return Reply.json(
        w instanceof EntityWritten e ? EntityWire.written(e) : GovernWire.written((Written) w));
  }

  private Reply reject(Call call) {
    Args a = call.args().allowOnly(Set.of("id", "reason", Call.NAMESPACE));
    Namespace ns = call.namespace();
    Object r =
        governed
            .as(call.caller().actor())
            .rejectCandidate(ns, a.requireString("id"), a.requireString("reason"), reviewer(call));
    ObjectNode out = McpJson.object();
    if (r instanceof Entity e) {
      out.set("entity", EntityWire.entity(e));
    } else {
      out.set("memory", GovernWire.memory((Memory) r));
    }
    return Reply.json(out);
  }

  private static Reviewer reviewer(Call call) {
    return new Reviewer(call.caller().holder());
  }
}
