// expect: SUCCESSFUL
package array_2d_ok;

public class Main {
  public static void main(String[] args) {
    int[][] m = new int[3][4];
    for (int i = 0; i < m.length; i++) {
      for (int j = 0; j < m[i].length; j++) m[i][j] = i + j;
    }
    assert m.length == 3 && m[0].length == 4;
    assert m[2][3] == 5 && m[1][1] == 2;
    char[][][] cube = new char[2][2][2];
    cube[1][1][1] = 'x';
    assert cube[1][1][1] == 'x' && cube[0][0][0] == 0;
  }
}
