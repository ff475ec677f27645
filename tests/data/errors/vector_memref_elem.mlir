module attributes {x.a = vector<4xmemref<i32>>} {}
