// The definition of Widget that decl_base.cc only declares.
struct Widget {
	virtual ~Widget();
	virtual void draw();
	long id;
};

Widget::~Widget() {}
void Widget::draw() {}
