package dev.loci;

import static dev.loci.ChildJvm.print;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of the kill tests: opens a data directory and adds traces from several threads
 * until it is killed, printing {@code ACK <uid> <content> .} for each add only after {@code add}
 * returned, so every printed line is a promise that the trace is durable.
 *
 * <p>Usage: {@code CrashWriter <dataDir> <durability> <threads> [<segmentBytes>]}. Prints {@code
 * READY} once open and {@code ERR ...} if a write fails. It stops on its own when its standard
 * input closes (the parent died) or after two minutes, so a broken test cannot leave it running.
 */
public final class CrashWriter {
  static final Namespace NS = Namespace.of("crash.writer");
  private static final String PAD = "x".repeat(64);

  private CrashWriter() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Durability durability = Durability.parse(args[1]);
    int threads = Integer.parseInt(args[2]);
    long segmentBytes = args.length > 3 ? Long.parseLong(args[3]) : 64L << 20;
    PrintStream out = ChildJvm.start(2);
    Loci loci =
        Loci.builder()
            .dataDir(dir)
            .durability(durability)
            .segmentBytes(segmentBytes)
            .snapshotAfter(0)
            .open();
    print(out, "READY");
    for (int w = 0; w < threads; w++) {
      int writer = w;
      Thread t =
          new Thread(
              () -> {
                try {
                  for (long i = 0; ; i++) {
                    String content =
                        "{\"w\":" + writer + ",\"i\":" + i + ",\"pad\":\"" + PAD + "\"}";
                    Trace trace = loci.traces().add(NS, content, List.of("w" + writer));
                    print(out, "ACK " + trace.uid() + " " + trace.content() + " .");
                  }
                } catch (RuntimeException e) {
                  print(out, "ERR writer " + writer + ": " + e);
                  Runtime.getRuntime().halt(3);
                }
              },
              "writer-" + w);
      t.start();
    }
  }
}
