package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityType;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.SourceRef;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory-to-entity graduation (the AtoCore flow): an active memory of a graduating type ({@code
 * knowledge}, {@code project}, {@code adaptation}) proposes an entity candidate structured from its
 * content, and becomes {@code graduated} with a forward pointer to it, a frozen historical record.
 * Four signals propose it: 5 or more reinforcements, a {@code knowledge} memory shaped {@code X =
 * value [unit]} becoming active, an explicit request, and an extraction whose entity matches the
 * memory. Nothing is promoted: the entity waits in the review queue.
 */
final class Graduation {
  /** Reinforcements that propose graduation. */
  static final int REINFORCEMENTS = 5;

  private static final Pattern SHAPE =
      Pattern.compile(
          "^\\s*(?:the\\s+)?([A-Za-z][A-Za-z0-9 _-]{0,60}?)\\s*=\\s*"
              + "([-+]?\\d+(?:[.,]\\d+)?)\\s*([A-Za-zµ°%][A-Za-z0-9µ°%/·^-]{0,15})?\\s*\\.?\\s*$");
  private static final Pattern CONSTRAINT =
      Pattern.compile(
          "\\b(?:must not|shall not|may not|must never|cannot exceed|no more than)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern REQUIREMENT =
      Pattern.compile("\\b(?:must|shall|required)\\b", Pattern.CASE_INSENSITIVE);

  private Graduation() {}

  /** Whether memories of {@code type} ever graduate. */
  static boolean graduating(MemoryType type) {
    return type == MemoryType.KNOWLEDGE
        || type == MemoryType.PROJECT
        || type == MemoryType.ADAPTATION;
  }

  /** Whether {@code m} is a {@code knowledge} memory shaped {@code X = value [unit]}. */
  static boolean shaped(Memory m) {
    return m.type() == MemoryType.KNOWLEDGE && SHAPE.matcher(m.content()).matches();
  }

  /** Whether an active memory has reached the reinforcement signal. */
  static boolean reinforcedEnough(Memory m) {
    return m.status() == MemoryStatus.ACTIVE
        && graduating(m.type())
        && m.reinforcements() >= REINFORCEMENTS;
  }

  /**
   * The events that graduate {@code m} (its current version): an entity candidate (or the same
   * entity reinforced) and the memory frozen behind it.
   *
   * @throws InvalidRequestException naming {@code type} or {@code status} if it cannot graduate
   */
  static List<Event> graduate(
      CommandContext ctx, Namespace ns, EntityDecisions entities, Memory m, String signal) {
    if (!graduating(m.type())) {
      throw new InvalidRequestException(
          "type",
          "identity, preference and episodic memories never graduate; found " + m.type().label());
    }
    Transitions.MEMORIES.require(m, MemoryStatus.ACTIVE);
    Entity e = entities.proposed(ctx, ns, draft(m));
    List<Event> events = new ArrayList<>();
    events.add(GovernLayer.entityEvent(e));
    events.add(GovernLayer.memoryEvent(m.graduatedTo(e.id(), "graduated: " + signal, ctx.now())));
    return events;
  }

  /** The entity a memory's content structures into. */
  static EntityDraft draft(Memory m) {
    Matcher f = SHAPE.matcher(m.content());
    EntityType type;
    String name;
    Map<String, String> fields;
    if (m.type() == MemoryType.KNOWLEDGE && f.matches()) {
      type = f.group(3) == null ? EntityType.FACT : EntityType.PARAMETER;
      name = f.group(1).strip();
      fields = Map.of("value", f.group(2) + (f.group(3) == null ? "" : " " + f.group(3)));
    } else {
      String text = m.content().strip();
      type =
          switch (m.type()) {
            case ADAPTATION -> EntityType.DECISION;
            case PROJECT ->
                CONSTRAINT.matcher(text).find()
                    ? EntityType.CONSTRAINT
                    : REQUIREMENT.matcher(text).find() ? EntityType.REQUIREMENT : EntityType.FACT;
            default -> EntityType.FACT;
          };
      name = RuleExtractor.name(text);
      fields = Map.of("statement", text);
    }
    List<SourceRef> sources = new ArrayList<>();
    sources.add(new SourceRef("memory", m.id()));
    m.provenance().sourceInteraction().ifPresent(i -> sources.add(new SourceRef("interaction", i)));
    m.provenance().sourceChunk().ifPresent(c -> sources.add(new SourceRef("chunk", c)));
    return new EntityDraft(
        type, name, fields, m.confidence(), sources, m.provenance(), Optional.of(m.id()));
  }
}
