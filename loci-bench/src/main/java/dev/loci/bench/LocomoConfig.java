package dev.loci.bench;

import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.internal.EnrichedConversationPack;
import dev.loci.recall.internal.Retriever;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every knob a LoCoMo run depends on, by name, with its value: those of the run's options and the
 * fixed ones of the engine and the pack that a run cannot change (the hybrid fusion, the candidate
 * pool, the {@code shares_term} thresholds, the defaults of {@link RecallQuery}). Printed by {@code
 * loci bench locomo --config} and recorded in every report, so a figure can always be traced to the
 * settings that made it.
 */
final class LocomoConfig {
  private LocomoConfig() {}

  /** The knobs, in a stable order. */
  static Map<String, Object> knobs(LocomoBenchmark.Options o) {
    RecallQuery defaults = RecallQuery.builder("q", RecallMode.PPR).build();
    Map<String, Object> k = new LinkedHashMap<>();
    k.put("data", o.data().toString());
    k.put("conversations", o.conversations().isEmpty() ? "all" : o.conversations());
    k.put("tuning_conversations", "1-" + LocomoBenchmark.TUNING_CONVERSATIONS);
    k.put("embedding", o.embeddingName());
    k.put("embedding_model", o.embedding().modelId());
    k.put("modes", o.modes().stream().map(RecallMode::wireName).toList());
    k.put("ks", o.ks());
    k.put("turn_text_dated", o.dated());
    k.put("turn_text_window", o.window());
    k.put("term_edges", o.termEdges());
    k.put("term_edges_max_turns", o.termMaxTurns());
    k.put("term_edges_weight", o.termWeight());
    k.put("entity_edges", o.entityEdges());
    k.put("entity_edges_weight", EnrichedConversationPack.ENTITY_WEIGHT);
    k.put("resolve_dates", o.resolveDates());
    k.put("dense_peer", o.densePeer());
    k.put("seeds", o.seeds());
    k.put("hops", o.hops());
    k.put("lexical_shares", o.lexicalShares());
    k.put("session_caps", o.sessionCaps());
    k.put("context_weights", o.contextWeights());
    k.put("length_norms", o.lengthNorms());
    k.put("weights", o.weights().map(w -> (Object) w.asMap()).orElse(o.pack().weights().asMap()));
    k.put("hybrid_fusion", Retriever.HYBRID_FUSION);
    k.put("graph_seed_score", Retriever.SEED_SCORE);
    k.put("query_time", Retriever.QUERY_TIME);
    k.put("query_speaker", Retriever.QUERY_SPEAKER);
    k.put("questions_asked_on", "each conversation's last session day");
    k.put("candidate_pool", Retriever.POOL);
    k.put("ppr_restart", defaults.restart());
    k.put("spreading_decay", defaults.decay());
    k.put("spreading_threshold", defaults.threshold());
    k.put("cross_validation", "leave one conversation out, chosen on turn recall_all@5");
    return k;
  }

  /** The knobs as a Markdown table. */
  static String toMarkdown(LocomoBenchmark.Options o) {
    StringBuilder b = new StringBuilder("Knobs of this run:\n\n");
    Format.row(b, "knob", "value");
    Format.row(b, "---", "---");
    knobs(o)
        .forEach(
            (name, value) ->
                Format.row(
                    b,
                    name,
                    value instanceof List<?> l
                        ? String.join(",", l.stream().map(String::valueOf).toList())
                        : String.valueOf(value)));
    return b.append('\n').toString();
  }
}
