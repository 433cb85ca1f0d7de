package dev.loci.pathway;

import static dev.loci.ChildJvm.daemon;
import static dev.loci.ChildJvm.print;
import static dev.loci.ChildJvm.sleep;

import dev.loci.ChildJvm;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The child process of {@link PathwayKillTest}: opens a data directory and, from several threads,
 * inserts, revises and replays pathway traces until it is killed, printing a line only after the
 * call returned, so every line is a promise that the write is durable:
 *
 * <ul>
 *   <li>{@code I <uid> <pathway_id> .} after an insert;
 *   <li>{@code R <old uid> <new uid> .} after a revision;
 *   <li>{@code P <uid> .} after a (successful) replay.
 * </ul>
 *
 * <p>Usage: {@code PathwayCrashWriter <dataDir> <threads> <snapshotMillis>}; with {@code
 * snapshotMillis > 0} a further thread takes a snapshot that often, so the reopen restores a
 * snapshot and replays the journal after it. Stops on its own when standard input closes (the
 * parent died) or after two minutes.
 */
public final class PathwayCrashWriter {
  static final Namespace NS = Namespace.of("crash.pathway");
  static final String[] FILES = {
    "crates/queryd/src/service.rs", "crates/queryd/src/plan.rs", "crates/ingest/src/lib.rs"
  };

  private PathwayCrashWriter() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int threads = Integer.parseInt(args[1]);
    long snapshotMillis = Long.parseLong(args[2]);
    PrintStream out = ChildJvm.start(4);
    Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open();
    PathwayMemory pathways = PathwayMemory.of(loci);
    print(out, "READY");
    if (snapshotMillis > 0) {
      daemon(
          "snapshots",
          () -> {
            while (true) {
              sleep(snapshotMillis);
              loci.snapshot();
            }
          });
    }
    for (int w = 0; w < threads; w++) {
      int writer = w;
      Thread t =
          new Thread(
              () -> {
                try {
                  write(pathways, writer, out);
                } catch (RuntimeException e) {
                  print(out, "ERR writer " + writer + ": " + e);
                  Runtime.getRuntime().halt(3);
                }
              },
              "writer-" + w);
      t.start();
    }
  }

  /** One writer's loop: its own task class, so its revisions never race another writer's. */
  private static void write(PathwayMemory pathways, int writer, PrintStream out) {
    Random r = new Random(writer);
    List<String> heads = new ArrayList<>();
    for (long i = 0; ; i++) {
      int pick = r.nextInt(10);
      if (pick < 5 || heads.isEmpty()) {
        PathwayTrace t =
            pathways
                .insert(
                    NS,
                    PathwayTrace.builder("crash_w" + writer, FILES[r.nextInt(FILES.length)])
                        .signalClass("LOOPING")
                        .reducerSummary("pass " + i + " reached jo" + i + "@example.com")
                        .finalVerdict("accepted"))
                .trace();
        heads.add(t.traceUid());
        print(out, "I " + t.traceUid() + " " + t.pathwayId() + " .");
      } else if (pick < 8) {
        int at = r.nextInt(heads.size());
        String old = heads.get(at);
        PathwayTrace t = pathways.revise(NS, old, b -> b.finalVerdict("revised " + old)).trace();
        heads.set(at, t.traceUid());
        print(out, "R " + old + " " + t.traceUid() + " .");
      } else {
        String uid = heads.get(r.nextInt(heads.size()));
        pathways.recordReplay(NS, uid, true);
        print(out, "P " + uid + " .");
      }
    }
  }
}
