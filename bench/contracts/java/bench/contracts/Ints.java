package bench.contracts;

/** Small tasks over int and boolean values. */
public final class Ints {
  private Ints() {}

  public static int abs(int x) {
    return x < 0 ? -x : x;
  }

  public static int max3(int a, int b, int c) {
    int m = a;
    if (b > m) {
      m = b;
    }
    if (c > m) {
      m = c;
    }
    return m;
  }

  public static int median3(int a, int b, int c) {
    if (a > b) {
      int t = a;
      a = b;
      b = t;
    }
    if (b > c) {
      b = c;
    }
    return a > b ? a : b;
  }

  public static int sign(int x) {
    if (x > 0) {
      return 1;
    }
    if (x < 0) {
      return -1;
    }
    return 0;
  }

  public static int clamp(int x, int lo, int hi) {
    if (lo > hi) {
      throw new IllegalArgumentException("empty range");
    }
    if (x < lo) {
      return lo;
    }
    if (x > hi) {
      return hi;
    }
    return x;
  }

  public static boolean isEven(int n) {
    return n % 2 == 0;
  }

  public static int quotient(int a, int b) {
    if (b == 0) {
      throw new IllegalArgumentException("division by zero");
    }
    return a / b;
  }

  /** No check of its own: b == 0 raises the JVM's ArithmeticException. */
  public static int remainder(int a, int b) {
    return a % b;
  }

  public static int digitSum(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("negative");
    }
    int s = 0;
    while (n > 0) {
      s += n % 10;
      n /= 10;
    }
    return s;
  }

  public static int digitRoot(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("negative");
    }
    while (n >= 10) {
      int s = 0;
      while (n > 0) {
        s += n % 10;
        n /= 10;
      }
      n = s;
    }
    return n;
  }

  public static int countDigits(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("negative");
    }
    int digits = 1;
    while (n >= 10) {
      n /= 10;
      digits++;
    }
    return digits;
  }

  public static int gcd(int a, int b) {
    if (a < 0 || b < 0) {
      throw new IllegalArgumentException("negative");
    }
    while (b != 0) {
      int t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  public static int factorial(int n) {
    if (n < 0 || n > 12) {
      throw new IllegalArgumentException("n out of 0..12");
    }
    int r = 1;
    for (int i = 2; i <= n; i++) {
      r *= i;
    }
    return r;
  }

  public static int power(int base, int exp) {
    if (exp < 0) {
      throw new IllegalArgumentException("negative exponent");
    }
    int r = 1;
    for (int i = 0; i < exp; i++) {
      r *= base;
    }
    return r;
  }

  public static boolean isLeapYear(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  }

  public static boolean isPrime(int n) {
    if (n < 2) {
      return false;
    }
    for (int d = 2; d <= n / d; d++) {
      if (n % d == 0) {
        return false;
      }
    }
    return true;
  }

  public static boolean isPowerOfTwo(int n) {
    return n > 0 && (n & (n - 1)) == 0;
  }

  public static int fibonacci(int n) {
    if (n < 0 || n > 46) {
      throw new IllegalArgumentException("n out of 0..46");
    }
    int a = 0;
    int b = 1;
    for (int i = 0; i < n; i++) {
      int t = a + b;
      a = b;
      b = t;
    }
    return a;
  }

  /** 0: no triangle, 1: scalene, 2: isosceles, 3: equilateral. */
  public static int triangle(int a, int b, int c) {
    if (a <= 0 || b <= 0 || c <= 0) {
      throw new IllegalArgumentException("side not positive");
    }
    if ((long) a + b <= c || (long) a + c <= b || (long) b + c <= a) {
      return 0;
    }
    if (a == b && b == c) {
      return 3;
    }
    if (a == b || b == c || a == c) {
      return 2;
    }
    return 1;
  }
}
