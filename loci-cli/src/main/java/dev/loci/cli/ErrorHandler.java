package dev.loci.cli;

import dev.loci.ConflictException;
import dev.loci.InvalidRequestException;
import dev.loci.LociException;
import dev.loci.NotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one place where failures become an exit code and a single {@code loci: <message>} line on
 * stderr, never a stack trace.
 *
 * <ul>
 *   <li>2, usage error or invalid input: picocli parameter errors, {@link InvalidRequestException},
 *       {@link NotFoundException}, {@link ConflictException}, {@link IllegalArgumentException};
 *   <li>1, failure: every other {@link LociException} (storage, corrupt journal or data), I/O
 *       errors, and anything unexpected.
 * </ul>
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    String suggestion = "";
    if (ex instanceof UnmatchedArgumentException unmatched
        && !unmatched.getSuggestions().isEmpty()) {
      suggestion = "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
    }
    cmd.getErr()
        .println(
            "loci: "
                + ex.getMessage()
                + suggestion
                + " (see '"
                + cmd.getCommandSpec().qualifiedName()
                + " --help')");
    return ExitCode.USAGE;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
    cmd.getErr().println("loci: " + message(ex));
    return exitCode(ex);
  }

  private static int exitCode(Exception ex) {
    if (ex instanceof InvalidRequestException
        || ex instanceof NotFoundException
        || ex instanceof ConflictException
        || ex instanceof IllegalArgumentException) {
      return ExitCode.USAGE;
    }
    return ExitCode.SOFTWARE;
  }

  private static String message(Exception ex) {
    if (ex instanceof UncheckedIOException && ex.getCause() != null) {
      return ioMessage(ex.getCause());
    }
    if (ex instanceof IOException) {
      return ioMessage(ex);
    }
    if (ex instanceof LociException || ex instanceof IllegalArgumentException) {
      return ex.getMessage();
    }
    return "unexpected error: " + ex;
  }

  private static String ioMessage(Throwable io) {
    return "I/O error: " + io.getClass().getSimpleName() + ": " + io.getMessage();
  }
}
