// JUnit Platform listener shipped with tracespec's probe. It tells the probe
// which test runs on which thread (so observations carry "Class#method"),
// and appends one line per test event to the file named by the system
// property tracespec.results, flushed at once so that a JVM that dies
// mid-run still leaves the results so far; a container (a test class, the
// engine) only when it failed. Failure messages are not
// written: they may contain recorded values.
package tracespec.listener;

import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

public final class TracespecListener implements TestExecutionListener {
  private static final String HOOKS = "tracespec.probe.Hooks";

  private final FileOutputStream out;
  private final Method testStarted;
  private final Method testFinished;

  public TracespecListener() {
    FileOutputStream stream = null;
    String path = System.getProperty("tracespec.results");
    if (path != null && !path.isEmpty()) {
      try {
        stream = new FileOutputStream(path, true);
      } catch (IOException e) {
        System.err.println("tracespec listener: cannot open " + path + ": " + e.getMessage());
      }
    }
    out = stream;
    // The hooks class exists only when the probe is loaded.
    Method started = null;
    Method finished = null;
    try {
      Class<?> hooks = Class.forName(HOOKS, true, null);
      started = hooks.getMethod("testStarted", String.class);
      finished = hooks.getMethod("testFinished");
    } catch (ReflectiveOperationException | LinkageError e) {
      started = null;
      finished = null;
    }
    testStarted = started;
    testFinished = finished;
  }

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    write("plan-started");
  }

  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    write("plan-finished");
  }

  @Override
  public void executionStarted(TestIdentifier id) {
    String name = testName(id);
    if (name == null) return;
    write("started\t" + name);
    call(testStarted, name);
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    String name = id.isTest() ? testName(id) : className(id);
    if (name != null) write("skipped\t" + name);
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    String failure = result.getThrowable().map(t -> t.getClass().getName()).orElse("");
    if (!id.isTest()) {
      // A container's own code failed: a class's @BeforeAll or @AfterAll,
      // its static initializer, an extension, the engine. Its tests may
      // never have started; the failure is reported all the same.
      if (result.getStatus() == TestExecutionResult.Status.FAILED) {
        write("container-failed\t" + containerName(id) + "\t" + failure);
      }
      return;
    }
    String name = testName(id);
    call(testFinished);
    write("finished\t" + name + "\t" + result.getStatus() + "\t" + failure);
  }

  // A test class by its binary name; a test template (a parameterized
  // test whose arguments could not be made) as Class#method; else (the
  // engine) the unique id.
  private static String containerName(TestIdentifier id) {
    Optional<TestSource> source = id.getSource();
    if (source.isPresent() && source.get() instanceof ClassSource) {
      return ((ClassSource) source.get()).getClassName();
    }
    if (source.isPresent() && source.get() instanceof MethodSource) {
      MethodSource method = (MethodSource) source.get();
      return method.getClassName() + "#" + method.getMethodName();
    }
    return id.getUniqueId();
  }

  private static String testName(TestIdentifier id) {
    if (!id.isTest()) return null;
    Optional<TestSource> source = id.getSource();
    if (source.isPresent() && source.get() instanceof MethodSource) {
      MethodSource method = (MethodSource) source.get();
      return method.getClassName() + "#" + method.getMethodName();
    }
    return id.getUniqueId();
  }

  private static String className(TestIdentifier id) {
    Optional<TestSource> source = id.getSource();
    if (source.isPresent() && source.get() instanceof ClassSource) {
      return ((ClassSource) source.get()).getClassName() + "#*";
    }
    return null;
  }

  private static void call(Method hook, Object... args) {
    if (hook == null) return;
    try {
      hook.invoke(null, args);
    } catch (ReflectiveOperationException e) {
      // The probe is gone (JVM shutting down); results are still written.
    }
  }

  private synchronized void write(String line) {
    if (out == null) return;
    try {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      System.err.println("tracespec listener: cannot write results: " + e.getMessage());
    }
  }
}
