/**
 * End-to-end benchmarks of Loci against peers measured in the same process run, so every figure
 * comes with a ratio and the machine it ran on. {@link dev.loci.bench.JournalBenchmark} measures
 * durable appends against SQLite and replay speed on open; {@link dev.loci.bench.PathwayBenchmark}
 * measures pathway inserts and queries against an exact scan that also checks every answer. For
 * recall quality, {@link dev.loci.bench.LocomoBenchmark} scores every recall mode on LoCoMo next to
 * plain Lucene BM25, SQLite FTS5 and an exact dense scan, and {@link dev.loci.bench.CasesBenchmark}
 * checks structured cases (evidence node ids, required edge types) per mode.
 *
 * <p>Benchmarks write real files under a work directory given by the caller and delete what they
 * wrote when done. No method accepts or returns {@code null}.
 */
package dev.loci.bench;
