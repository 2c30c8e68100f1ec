import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Runs every public method of the validator's Java models of JDK classes
 * (validator/jdk/models, class tracespec.jdk.X stands for X) and the real JDK
 * method of the same name and parameter types on the same generated inputs,
 * edge cases first (null, empty arrays, MIN/MAX, NaN, -0.0, out-of-range
 * indices), then seeded random ones. Both must return equal values, leave the
 * array arguments equal, or throw exceptions of the same class with the same
 * message. A model of an instance method (String, StringBuilder) is static
 * and takes the receiver first: it is compared with the JDK's instance
 * method called on that receiver. Prints one line per model method; exits 1
 * on any disagreement.
 *
 * Usage: java -Xmx128m -cp MODELS:. Conformance CLASS... (e.g. java.util.Arrays);
 * a small heap makes the huge allocations of edge-case lengths fail fast.
 */
public final class Conformance {
  private static final int EXHAUSTIVE = 4000;  // all combinations up to this many
  private static final int RANDOM = 1500;      // then this many random ones
  private static final Random RNG = new Random(20261203L);
  private static boolean stringEdges;  // testing java.lang.String

  public static void main(String[] args) throws Exception {
    int failures = 0;
    int methods = 0;
    long calls = 0;
    for (String jdkName : args) {
      Class<?> jdk = Class.forName(jdkName);
      stringEdges = jdk == String.class;
      Class<?> model = Class.forName("tracespec.jdk." + jdkName);
      Method[] declared = model.getDeclaredMethods();
      Arrays.sort(declared, Comparator.comparing(Method::toString));
      for (Method m : declared) {
        if (!Modifier.isPublic(m.getModifiers())) {
          continue;
        }
        Method real = jdkMethod(jdk, m);
        if (real == null) {
          System.out.println("MISSING in the JDK: " + m);
          failures++;
          continue;
        }
        methods++;
        long start = System.nanoTime();
        List<Object[]> inputs = inputs(m.getParameterTypes());
        int bad = 0;
        for (Object[] in : inputs) {
          calls++;
          String diff = compare(m, real, in);
          if (diff != null) {
            if (bad < 3) {
              System.out.println("DIFFERS " + jdkName + "." + m.getName() + describe(in) + ": " + diff);
            }
            bad++;
          }
        }
        System.out.println((bad == 0 ? "ok      " : "FAILED  ") + jdkName + "." + m.getName()
            + Arrays.toString(m.getParameterTypes()) + " on " + inputs.size() + " inputs"
            + (bad == 0 ? "" : ", " + bad + " differ") + " ("
            + (System.nanoTime() - start) / 1000000 + " ms)");
        if (bad > 0) {
          failures++;
        }
      }
    }
    System.out.println(methods + " model methods, " + calls + " calls, " + failures + " failing");
    System.exit(failures == 0 ? 0 : 1);
  }

  // --- running both ---

  // The JDK's static method of the same name and parameters, else its
  // instance method taking the model's parameters after the first.
  private static Method jdkMethod(Class<?> jdk, Method model) {
    Class<?>[] types = model.getParameterTypes();
    try {
      Method real = jdk.getMethod(model.getName(), types);
      if (Modifier.isStatic(real.getModifiers())) {
        return real;
      }
    } catch (NoSuchMethodException e) {
      // try the instance method below
    }
    if (types.length == 0 || types[0] != jdk) {
      return null;
    }
    try {
      Method real = jdk.getMethod(model.getName(), Arrays.copyOfRange(types, 1, types.length));
      return Modifier.isStatic(real.getModifiers()) ? null : real;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  // StringBuilders compare by contents (a model returns its argument).
  private static Object[] normalized(Object[] values) {
    Object[] out = values.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] instanceof StringBuilder) {
        out[i] = "StringBuilder[" + out[i] + "]";
      }
    }
    return out;
  }

  private static String compare(Method model, Method real, Object[] in) throws Exception {
    if (!Modifier.isStatic(real.getModifiers()) && in[0] == null) {
      // A call on null throws before any method runs (the executor checks
      // the receiver at invokevirtual): the model is never called on null.
      return null;
    }
    Object[] a = copyArgs(in);
    Object[] b = copyArgs(in);
    Outcome x = run(model, a);
    Outcome y = run(real, b);
    if (x.thrown != null || y.thrown != null) {
      if (x.thrown == null || y.thrown == null) {
        return "model " + x + ", JDK " + y;
      }
      // The JVM writes the message of a NullPointerException it raises
      // itself from local variable names ("helpful" messages); a model
      // raises it at the same point, so only the class is compared. An
      // array too large for the heap (copyOf(a, Integer.MAX_VALUE)) fails
      // on both sides, with messages that depend on the heap.
      boolean jvmMessage = x.thrown instanceof NullPointerException
          || x.thrown instanceof OutOfMemoryError;
      if (x.thrown.getClass() != y.thrown.getClass()
          || (!jvmMessage
              && !java.util.Objects.equals(x.thrown.getMessage(), y.thrown.getMessage()))) {
        return "model " + x + ", JDK " + y;
      }
      return null;
    }
    if (!Arrays.deepEquals(normalized(new Object[] {x.value}), normalized(new Object[] {y.value}))) {
      return "model " + x + ", JDK " + y;
    }
    if (!Arrays.deepEquals(normalized(a), normalized(b))) {
      return "arguments after the call: model " + describe(a) + ", JDK " + describe(b);
    }
    return null;
  }

  private static final class Outcome {
    Object value;
    Throwable thrown;

    @Override
    public String toString() {
      return thrown != null ? "threw " + thrown : "returned " + describe(new Object[] {value});
    }
  }

  private static Outcome run(Method m, Object[] args) throws IllegalAccessException {
    Outcome o = new Outcome();
    try {
      if (Modifier.isStatic(m.getModifiers())) {
        o.value = m.invoke(null, args);
      } else if (args[0] == null) {
        o.thrown = new NullPointerException();  // the call itself throws
      } else {
        o.value = m.invoke(args[0], Arrays.copyOfRange(args, 1, args.length));
      }
    } catch (InvocationTargetException e) {
      o.thrown = e.getCause();
    }
    return o;
  }

  private static Object[] copyArgs(Object[] in) {
    Object[] out = new Object[in.length];
    for (int i = 0; i < in.length; i++) {
      Object v = in[i];
      if (v instanceof StringBuilder) {
        v = new StringBuilder((StringBuilder) v);
      }
      if (v != null && v.getClass().isArray()) {
        int n = Array.getLength(v);
        Object c = Array.newInstance(v.getClass().getComponentType(), n);
        System.arraycopy(v, 0, c, 0, n);
        v = c;
      }
      out[i] = v;
    }
    return out;
  }

  private static String describe(Object[] args) {
    String s = Arrays.deepToString(args);
    return "(" + s.substring(1, s.length() - 1) + ")";
  }

  // --- inputs: every combination of the edge values, then random ones ---

  private static List<Object[]> inputs(Class<?>[] types) {
    List<List<Object>> edges = new ArrayList<>();
    long product = 1;
    for (Class<?> t : types) {
      List<Object> e = edgeValues(t);
      edges.add(e);
      product = Math.min(Long.MAX_VALUE / 64, product * e.size());
    }
    List<Object[]> out = new ArrayList<>();
    if (product <= EXHAUSTIVE) {
      for (long k = 0; k < product; k++) {
        Object[] in = new Object[types.length];
        long rest = k;
        for (int i = 0; i < types.length; i++) {
          List<Object> e = edges.get(i);
          in[i] = e.get((int) (rest % e.size()));
          rest /= e.size();
        }
        out.add(in);
      }
    } else {
      for (int k = 0; k < EXHAUSTIVE; k++) {
        Object[] in = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
          List<Object> e = edges.get(i);
          in[i] = e.get(RNG.nextInt(e.size()));
        }
        out.add(in);
      }
    }
    boolean arrays = false;
    for (Class<?> t : types) {
      arrays |= t.isArray();
    }
    for (int k = 0; k < RANDOM; k++) {
      Object[] in = new Object[types.length];
      for (int i = 0; i < types.length; i++) {
        in[i] = randomValue(types[i], arrays);
      }
      out.add(in);
    }
    return out;
  }

  private static List<Object> edgeValues(Class<?> t) {
    List<Object> out = new ArrayList<>();
    if (t == int.class) {
      for (int v : new int[] {0, 1, -1, 2, 3, 4, 5, 7, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
        out.add(v);
      }
      // A char and a supplementary code point (String.indexOf(int)).
      for (int v : stringEdges ? new int[] {'a', 0x1F600} : new int[0]) {
        out.add(v);
      }
    } else if (t == long.class) {
      for (long v : new long[] {0, 1, -1, 3, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32}) {
        out.add(v);
      }
    } else if (t == short.class) {
      for (short v : new short[] {0, 1, -1, 3, Short.MIN_VALUE, Short.MAX_VALUE}) {
        out.add(v);
      }
    } else if (t == byte.class) {
      for (byte v : new byte[] {0, 1, -1, 3, Byte.MIN_VALUE, Byte.MAX_VALUE}) {
        out.add(v);
      }
    } else if (t == char.class) {
      for (char v : new char[] {0, 'a', 'b', '\uD800', '\uDC00', Character.MAX_VALUE}) {
        out.add(v);
      }
    } else if (t == boolean.class) {
      out.add(false);
      out.add(true);
    } else if (t == float.class) {
      for (float v : new float[] {0f, -0f, 1f, -1f, Float.NaN, Float.intBitsToFloat(0x7fc00001),
          Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE}) {
        out.add(v);
      }
    } else if (t == double.class) {
      for (double v : new double[] {0d, -0d, 1d, -1d, Double.NaN,
          Double.longBitsToDouble(0x7ff8000000000001L), Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE}) {
        out.add(v);
      }
    } else if (t.isArray()) {
      out.add(null);
      Class<?> c = t.getComponentType();
      List<Object> elems = edgeValues(c);
      out.add(Array.newInstance(c, 0));
      for (int n = 1; n <= 4; n++) {
        // All equal, ascending, descending, and mixed edge values.
        for (int shape = 0; shape < 4; shape++) {
          Object a = Array.newInstance(c, n);
          for (int i = 0; i < n; i++) {
            int at;
            if (shape == 0) {
              at = 1;
            } else if (shape == 1) {
              at = i;
            } else if (shape == 2) {
              at = n - 1 - i;
            } else {
              at = (i * 7 + n) % elems.size();
            }
            Array.set(a, i, elems.get(at % elems.size()));
          }
          out.add(a);
        }
      }
    } else if (t == String.class) {
      out.add(null);
      out.add("message");
      // Strings: empty, short, surrogates alone and paired (U+1F600).
      for (String v : new String[] {"", "a", "ab", "abc", "ba", "\uD800", "a\uDC00b",
          "\uD83D\uDE00", "-2147483648"}) {
        out.add(v);
      }
    } else if (t == CharSequence.class) {
      out.add(null);
      out.add("");
      out.add("b");
      out.add("ab");
      out.add(new StringBuilder("a"));
    } else if (t == StringBuilder.class) {
      out.add(null);
      out.add(new StringBuilder());
      out.add(new StringBuilder("ab"));
      out.add(new StringBuilder("\uD800"));
    } else if (t == Comparator.class) {
      out.add(null);
      out.add(Comparator.naturalOrder());
      out.add(Comparator.reverseOrder());
    } else {
      out.add(null);
      out.add(Integer.valueOf(1));
      out.add(Integer.valueOf(2));
      out.add(new Integer(1));  // equal, not identical
      out.add("x");
      out.add("");
      out.add("ab");
    }
    return out;
  }

  private static Object randomValue(Class<?> t, boolean arrays) {
    if (t.isArray()) {
      if (RNG.nextInt(10) == 0) {
        return null;
      }
      Class<?> c = t.getComponentType();
      Object a = Array.newInstance(c, RNG.nextInt(7));
      for (int i = 0; i < Array.getLength(a); i++) {
        Array.set(a, i, randomValue(c, true));
      }
      return a;
    }
    List<Object> edges = edgeValues(t);
    if (RNG.nextBoolean() || !t.isPrimitive()) {
      return edges.get(RNG.nextInt(edges.size()));
    }
    int small = RNG.nextInt(13) - 4;  // indices around the lengths used
    if (t == int.class) {
      // With an array parameter an int may be a length or an index: not
      // arbitrary ones (the edge values hold the extremes), else any.
      if (RNG.nextInt(3) != 0) {
        return small;
      }
      return arrays ? RNG.nextInt(1 << 16) - (1 << 15) : RNG.nextInt();
    } else if (t == long.class) {
      return RNG.nextInt(3) == 0 ? RNG.nextLong() : (long) small;
    } else if (t == short.class) {
      return (short) RNG.nextInt();
    } else if (t == byte.class) {
      return (byte) RNG.nextInt();
    } else if (t == char.class) {
      return (char) RNG.nextInt();
    } else if (t == float.class) {
      return RNG.nextInt(4) == 0 ? Float.intBitsToFloat(RNG.nextInt()) : (float) small;
    } else if (t == double.class) {
      return RNG.nextInt(4) == 0 ? Double.longBitsToDouble(RNG.nextLong()) : (double) small;
    }
    return RNG.nextBoolean();
  }
}
