// Widget's key function (its destructor) is defined in widget.cc, so
// compilers describe Widget here as a declaration only, while Button,
// whose key function draw() is defined here, is described in full: its
// base has no size in this file.  pahole 1.24 shows a 16-byte hole there.
struct Widget {
	virtual ~Widget();
	virtual void draw();
	long id;
};

struct Button : Widget {
	char label;
	void draw() override;
};

void Button::draw()
{
	label = 1;
}
