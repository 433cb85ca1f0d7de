package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.govern.Candidate;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.Extraction;
import dev.loci.govern.ExtractionChunk;
import dev.loci.govern.Interaction;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Provenance;
import dev.loci.govern.SourceRef;
import dev.loci.govern.spi.ExtractionSource;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.govern.spi.Extractor;
import dev.loci.govern.spi.Proposal;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Extraction passes: on interaction capture, on request over a captured interaction, and over an
 * ingestion wave's chunks. A pass asks the extractor for proposals, keeps the target's kinds, drops
 * duplicates and what the namespace refuses, keeps the first {@value Extraction#CAP}, and writes
 * each as a candidate with full provenance (rule, source interaction, source chunk, extractor
 * version) in one journal batch with the interaction. An entity proposal that matches an active
 * memory graduates that memory (the fourth signal). Nothing is promoted.
 */
public final class ExtractionDecisions {
  private final GovernLayer layer;
  private final MemoryDecisions memories;
  private final EntityDecisions entities;

  /** Decisions over {@code layer}'s state. */
  public ExtractionDecisions(
      GovernLayer layer, MemoryDecisions memories, EntityDecisions entities) {
    this.layer = layer;
    this.memories = memories;
    this.entities = entities;
  }

  /** Captures an interaction and runs a pass over it. */
  public Decision<Extraction> decideCapture(
      CommandContext ctx,
      Namespace ns,
      String text,
      String speaker,
      Optional<Instant> said,
      List<String> subjectIds,
      String actor,
      ExtractionTarget target,
      Extractor extractor) {
    Interaction i =
        new Interaction(
            ctx.newId(), ns, text, speaker, said.orElse(ctx.now()), actor, ctx.now(), subjectIds);
    return pass(
        ctx,
        ns,
        Optional.empty(),
        Optional.of(i),
        true,
        List.of(source(i, ctx, target)),
        Map.of(),
        actor,
        extractor);
  }

  /** Runs a pass over captured interaction {@code id}. */
  public Decision<Extraction> decideExtract(
      CommandContext ctx,
      Namespace ns,
      String id,
      String actor,
      ExtractionTarget target,
      Extractor extractor) {
    Interaction i = layer.requireInteraction(ns, id);
    return pass(
        ctx,
        ns,
        Optional.empty(),
        Optional.of(i),
        false,
        List.of(source(i, ctx, target)),
        Map.of(),
        actor,
        extractor);
  }

  /** Runs one pass over the chunks of an ingestion wave. */
  public Decision<Extraction> decideWave(
      CommandContext ctx,
      Namespace ns,
      List<ExtractionChunk> chunks,
      String actor,
      ExtractionTarget target,
      Extractor extractor) {
    if (chunks.isEmpty()) {
      throw new InvalidRequestException("chunks", "expected at least one chunk");
    }
    List<ExtractionSource> sources = new ArrayList<>();
    Map<String, List<String>> about = new HashMap<>();
    for (ExtractionChunk c : chunks) {
      about.put(c.id(), c.subjectIds());
      sources.add(
          new ExtractionSource(
              c.text(),
              Optional.empty(),
              Optional.of(c.id()),
              c.document(),
              ctx.now(),
              ctx.now(),
              target));
    }
    return pass(
        ctx,
        ns,
        Optional.of(ctx.newId()),
        Optional.empty(),
        false,
        sources,
        about,
        actor,
        extractor);
  }

  private static ExtractionSource source(Interaction i, CommandContext ctx, ExtractionTarget t) {
    return new ExtractionSource(
        i.text(), Optional.of(i.id()), Optional.empty(), Optional.empty(), i.said(), ctx.now(), t);
  }

  private record Found(ExtractionSource source, Proposal proposal) {}

  private Decision<Extraction> pass(
      CommandContext ctx,
      Namespace ns,
      Optional<String> wave,
      Optional<Interaction> interaction,
      boolean capture,
      List<ExtractionSource> sources,
      Map<String, List<String>> chunkSubjects,
      String actor,
      Extractor extractor) {
    Map<String, Found> unique = new LinkedHashMap<>();
    for (ExtractionSource src : sources) {
      for (Proposal p : extractor.extract(src)) {
        if (wanted(ns, src.target(), p)) {
          unique.putIfAbsent(key(p), new Found(src, p));
        }
      }
    }
    List<Found> found = new ArrayList<>(unique.values());
    int overCap = Math.max(0, found.size() - Extraction.CAP);
    List<Event> events = new ArrayList<>();
    // keys: the facts proposed, so two passes proposing the same fact are decided one after the
    // other (the second reinforces the first), while passes over different facts share a round
    Set<String> keys = new HashSet<>();
    found.stream().limit(Extraction.CAP).forEach(f -> keys.add("fact:" + key(f.proposal())));
    interaction.ifPresent(i -> keys.add(i.id()));
    interaction.filter(i -> capture).ifPresent(i -> events.add(GovernLayer.interactionEvent(i)));
    List<Candidate> candidates = new ArrayList<>();
    List<Memory> graduated = new ArrayList<>();
    Set<String> touched = new HashSet<>();
    for (Found f : found.subList(0, Math.min(found.size(), Extraction.CAP))) {
      // what is extracted from an exchange or a chunk about someone is about them too
      List<String> subjects =
          interaction
              .map(Interaction::subjectIds)
              .or(() -> f.source().chunk().map(c -> chunkSubjects.getOrDefault(c, List.of())))
              .orElse(List.of());
      Provenance prov =
          new Provenance(
              actor,
              Optional.of(f.proposal().rule()),
              f.source().interaction(),
              f.source().chunk(),
              Optional.of(extractor.version()));
      if (f.proposal() instanceof Proposal.OfMemory pm) {
        MemoryDraft d;
        try {
          d = new MemoryDraft(pm.type(), pm.content(), pm.confidence(), pm.slot(), subjects, prov);
        } catch (InvalidRequestException tooLong) {
          continue; // a proposal no memory can hold is no candidate
        }
        Memory m = memories.proposed(ctx, ns, d);
        if (!touched.add(m.id())) {
          continue;
        }
        events.add(GovernLayer.memoryEvent(m));
        candidates.add(Candidate.of(m));
        if (Graduation.reinforcedEnough(m)) {
          List<Event> g = Graduation.graduate(ctx, ns, entities, m, "reinforced by extraction");
          events.addAll(g);
          graduated.add((Memory) g.get(1).decoded().orElseThrow());
        }
      } else if (f.proposal() instanceof Proposal.OfEntity pe) {
        List<SourceRef> refs = new ArrayList<>();
        f.source().interaction().ifPresent(i -> refs.add(new SourceRef("interaction", i)));
        f.source().chunk().ifPresent(c -> refs.add(new SourceRef("chunk", c)));
        f.source().document().ifPresent(d -> refs.add(new SourceRef("document", d)));
        Optional<Memory> match = matchingMemory(ns, pe).filter(m -> !touched.contains(m.id()));
        match.ifPresent(m -> refs.add(new SourceRef("memory", m.id())));
        EntityDraft d;
        try {
          d =
              new EntityDraft(
                  pe.type(),
                  pe.name(),
                  pe.fields(),
                  pe.confidence(),
                  refs,
                  prov,
                  match.map(Memory::id),
                  subjects);
        } catch (InvalidRequestException tooLong) {
          continue;
        }
        Entity e = entities.proposed(ctx, ns, d);
        if (!touched.add(e.id())) {
          continue;
        }
        events.add(GovernLayer.entityEvent(e));
        candidates.add(Candidate.of(e));
        if (match.isPresent()) {
          Memory g = match.get().graduatedTo(e.id(), "graduated: an extraction matched", ctx.now());
          touched.add(g.id());
          events.add(GovernLayer.memoryEvent(g));
          graduated.add(g);
        }
      }
    }
    keys.addAll(touched);
    return new Decision<>(
        events,
        keys,
        new Extraction(interaction, wave, extractor.version(), candidates, graduated, overCap));
  }

  private boolean wanted(Namespace ns, ExtractionTarget target, Proposal p) {
    if (p instanceof Proposal.OfMemory m) {
      return target.memories() && !memories.refused(ns, m.type());
    }
    return target.entities();
  }

  private static String key(Proposal p) {
    if (p instanceof Proposal.OfMemory m) {
      return "m|" + Shelf.factKey(m.type(), m.content(), List.of());
    }
    Proposal.OfEntity e = (Proposal.OfEntity) p;
    return "e|" + EntityShelf.factKey(e.type(), e.name(), e.fields());
  }

  /**
   * The active graduating memory an entity proposal restates: a memory whose slot is the entity's
   * cross-layer key and whose content holds its value, or a project, adaptation or knowledge memory
   * whose content is the entity's statement.
   */
  private Optional<Memory> matchingMemory(Namespace ns, Proposal.OfEntity pe) {
    Shelf s = layer.shelf(ns);
    String value = pe.fields().get("value");
    if (value != null) {
      String cross = RuleExtractor.slug(pe.name());
      for (Map.Entry<String, Set<String>> slot : s.activeBySlot.entrySet()) {
        if (slot.getKey().endsWith("|" + cross)) {
          for (String id : slot.getValue()) {
            Memory m = s.newest(id);
            if (Graduation.graduating(m.type()) && ConflictDecisions.agrees(m.content(), value)) {
              return Optional.of(m);
            }
          }
        }
      }
    }
    String statement = pe.fields().get("statement");
    if (statement != null) {
      for (MemoryType t :
          List.of(MemoryType.PROJECT, MemoryType.ADAPTATION, MemoryType.KNOWLEDGE)) {
        String id = s.openFacts.get(Shelf.factKey(t, statement, List.of()));
        if (id != null && s.newest(id).status() == MemoryStatus.ACTIVE) {
          return Optional.of(s.newest(id));
        }
      }
    }
    return Optional.empty();
  }
}
