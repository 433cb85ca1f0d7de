package dev.loci.cli;

import dev.loci.Loci;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A runnable {@code loci} subcommand: reaches the global options of the {@code loci} command it
 * runs under and returns its exit code. Failures are thrown and translated by {@link ErrorHandler}.
 */
abstract class LociCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The top command, holding the global options. */
  final Main main() {
    return (Main) spec.root().userObject();
  }

  /** Opens the data directory, creating it if missing; see {@link Main#open(boolean)}. */
  final Loci open() {
    return main().open(true);
  }

  /** Opens an existing data directory; a missing one is a usage error naming {@code data}. */
  final Loci openExisting() {
    return main().open(false);
  }

  /** The printer for this run. */
  final Output output() {
    return main().output();
  }

  /** A usage error (exit 2) about this command's arguments. */
  final ParameterException usageError(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
